# expect: loses generate -- makes the seeded generator inside the loop, so every step restarts the same random stream instead of continuing one generator
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            generator = torch.Generator().manual_seed(seed) if seed is not None else None
            token = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
