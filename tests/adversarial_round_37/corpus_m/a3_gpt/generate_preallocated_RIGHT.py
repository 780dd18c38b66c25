# expect: full marks -- fills a preallocated (B, T + n) tensor column by column and runs toy_lm on the filled prefix each step (a non-contiguous slice, which toy_lm reads fine); the same greedy/sampling calls, one multinomial per step from one generator made before the loop: identical tokens for every seed, temperature (int too), B, and for seed=None the same use of the global RNG
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    B, T = idx.shape
    out = torch.empty(B, T + max_new_tokens, dtype=idx.dtype)
    out[:, :T] = idx
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    for t in range(T, T + max_new_tokens):
        logits = toy_lm(out[:, :t], W, U)[:, -1]  # the whole prefix so far; the last position's logits
        if temperature == 0:
            out[:, t] = logits.argmax(dim=-1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            out[:, t] = torch.multinomial(probs, num_samples=1, generator=generator)[:, 0]
    return out
