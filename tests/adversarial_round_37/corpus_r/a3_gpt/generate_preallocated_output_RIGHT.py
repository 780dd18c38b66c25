# expect: full marks -- style: the whole (B, T + max_new_tokens) output allocated once in torch.long and filled column by column, the model run on a (non-contiguous) slice of it, greedy as `not temperature`
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    B, T = idx.shape
    out = torch.empty(B, T + max_new_tokens, dtype=torch.long)
    out[:, :T] = idx
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    for t in range(T, T + max_new_tokens):
        logits = toy_lm(out[:, :t], W, U)[:, -1]  # (B, V)
        if not temperature:
            out[:, t] = logits.argmax(dim=-1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            out[:, t : t + 1] = torch.multinomial(probs, num_samples=1, generator=generator)
    return out
