# expect: loses generate -- makes the generator with `if seed:`, so seed=0 counts as no seed: generate(..., seed=0) samples from the global RNG, cannot be replayed from torch.Generator().manual_seed(0) and gives different tokens on each call; spec: "where `generator = torch.Generator().manual_seed(seed)` is made once, before the loop, when a `seed` is given (else `generator = None`)"
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V): the next token's logits
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)  # (B, 1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)  # (B, 1)
        idx = torch.cat([idx, token], dim=1)
    return idx
