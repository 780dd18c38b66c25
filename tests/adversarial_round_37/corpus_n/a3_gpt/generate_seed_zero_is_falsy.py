# expect: loses generate -- makes the generator with `if seed` instead of `if seed is not None`, so seed=0, a seed like any other, falls back to generator=None: the samples come from torch's global random state (and advance it), are not the replay of torch.Generator().manual_seed(0), and two calls with seed=0 differ; the visible tests use seed=1; breaks 'generator = torch.Generator().manual_seed(seed) is made once, before the loop, when a seed is given (else generator = None). The tests replay your samples from the same seed'; input: generate(tensor([[1, 2], [3, 4]]), 5, *random_lm(6), seed=0) twice -> the two outputs differ and the global RNG moved (key: identical, global state untouched)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed else None  # no seed: torch's global generator
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V): the next token's logits
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)  # (B, 1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)  # (B, 1)
        idx = torch.cat([idx, token], dim=1)
    return idx
