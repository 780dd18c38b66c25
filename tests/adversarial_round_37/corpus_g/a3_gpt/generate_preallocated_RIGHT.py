# expect: full marks -- preallocates the output and fills one column per step, running toy_lm on the filled prefix; greedy tested with `not temperature`
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    B, T = idx.shape
    out = torch.empty(B, T + max_new_tokens, dtype=torch.long)
    out[:, :T] = idx
    generator = None
    if seed is not None:
        generator = torch.Generator()
        generator.manual_seed(seed)
    for t in range(T, T + max_new_tokens):
        last = toy_lm(out[:, :t], W, U)[:, t - 1]  # (B, V)
        if not temperature:
            out[:, t] = last.argmax(-1)
        else:
            probs = F.softmax(last / temperature, dim=-1)
            out[:, t] = torch.multinomial(probs, num_samples=1, generator=generator).squeeze(1)
    return out
