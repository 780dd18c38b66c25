# expect: loses generate -- logits multiplied by the temperature instead of divided (identical at the tested temperatures 0 and 1): generate(prompt, 5, W, U, temperature=0.5, seed=3) differs from the reference replay
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    out = idx
    for _ in range(max_new_tokens):
        last = toy_lm(out, W, U)[:, -1]
        if temperature == 0:
            nxt = last.argmax(-1, keepdim=True)
        else:
            nxt = torch.multinomial(torch.softmax(last * temperature, -1), num_samples=1, generator=generator)
        out = torch.cat([out, nxt], dim=-1)
    return out
