# expect: loses generate -- a torch.Generator() is always made and seeded only when a seed is given: without a seed it samples from a fresh generator with torch's fixed default seed, so every unseeded call gives the same tokens whatever the global RNG state, instead of drawing from the global RNG; breaks "generator = torch.Generator().manual_seed(seed) is made once ... when a seed is given (else generator = None)"; input: W, U = random_lm(6), prompt [[1, 2]], 5 tokens, temperature 1, seed None, after torch.manual_seed(1) and after torch.manual_seed(2) -> identical outputs that do not match a replay with the global RNG (spec: the global RNG's samples)
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
            token = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
