# expect: loses generate (subtle) -- with a seed it calls torch.manual_seed(seed) and samples from the global generator instead of making its own torch.Generator: the samples are the same as the key's (the default CPU generator seeded with s draws what Generator().manual_seed(s) draws), but the caller's global RNG is reset as a side effect (torch.rand after generate(..., seed=1) always gives the same number; the spec asks for exactly multinomial(..., generator=generator)); differs in the global RNG state after any call with a seed
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    if seed is not None:
        torch.manual_seed(seed)  # reproducible samples
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            token = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1)
        idx = torch.cat([idx, token], dim=1)
    return idx
