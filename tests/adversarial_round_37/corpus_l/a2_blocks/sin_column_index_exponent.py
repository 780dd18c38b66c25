# expect: loses sinusoidal -- each column j uses the exponent j/d of its own index, so the cosine column 2i+1 gets 10000^{(2i+1)/d} instead of sharing its pair's 10000^{2i/d}; position 0 is still [0, 1, 0, 1, ...] and PE[1, 0] is still sin(1), all the visible tests read; breaks "PE[t, 2i+1] = cos(t / 10000^{2i/d})"; input: sinusoidal_encoding(2, 8)[1, 1] = cos(10000^{-1/8}) = 0.950 (spec: cos(1) = 0.540)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    j = torch.arange(d_model, dtype=torch.float32)
    angles = torch.arange(T, dtype=torch.float32)[:, None] / torch.pow(10000.0, j / d_model)  # (T, d_model)
    even = (torch.arange(d_model) % 2 == 0)
    return torch.where(even, torch.sin(angles), torch.cos(angles))
