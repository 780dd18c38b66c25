# expect: loses generate (the temperature read as an inverse temperature, logits * temperature, before the softmax: identical at the default temperature 1 and at 0 (the visible tests), different elsewhere: V 50, prompt (4, 3), temperature 0.5, seed 3, 6 tokens: the printed rows differ)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits * temperature, dim=-1)  # sharper as the temperature falls
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
