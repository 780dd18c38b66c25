# expect: loses generate -- with seed=None it samples from a fresh torch.Generator() (fixed default seed) instead of generator=None (the global RNG): torch.manual_seed(0) and torch.manual_seed(1) before generate(prompt, 5, W, U) give the same tokens, unlike the reference
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator()
    if seed is not None:
        generator.manual_seed(seed)
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
