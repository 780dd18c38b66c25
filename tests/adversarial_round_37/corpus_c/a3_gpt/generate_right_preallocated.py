# expect: full marks -- preallocates the output (a new tensor of idx's dtype) and fills one column per step, running the model on the filled prefix
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    B, T = idx.shape
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    out = idx.new_empty(B, T + max_new_tokens)
    out[:, :T] = idx
    for step in range(T, T + max_new_tokens):
        last = toy_lm(out[:, :step], W, U)[:, -1, :]
        if temperature == 0:
            out[:, step] = torch.argmax(last, dim=-1)
        else:
            probs = F.softmax(last / temperature, dim=-1)
            out[:, step : step + 1] = torch.multinomial(probs, num_samples=1, generator=generator)
    return out
