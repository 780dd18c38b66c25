# expect: loses generate -- without a seed it makes an unseeded torch.Generator() instead of passing generator=None: a fresh generator always starts from the same default seed, so every call without a seed draws the same tokens whatever torch's global random state is (and the global stream is never used). Breaks "where generator = torch.Generator().manual_seed(seed) is made once, before the loop, when a seed is given (else generator = None)"; input: W, U = random_lm(6), prompt [[1, 2], [3, 4]], 8 new tokens, temperature 1, no seed, after torch.manual_seed(1) and again after torch.manual_seed(2) -> key: the two outputs differ (and equal torch.multinomial with the global stream); this answer: the same tokens both times
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator()  # its own stream: never touches torch's global one
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
