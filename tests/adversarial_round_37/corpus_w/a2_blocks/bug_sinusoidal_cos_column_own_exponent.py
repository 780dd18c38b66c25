# expect: loses sinusoidal -- "PE[t, 2i] = sin(t / 10000^{2i/d}) and PE[t, 2i+1] = cos(t / 10000^{2i/d})": both columns of a pair share the exponent 2i/d, but here each column j gets its own frequency 10000^{j/d}, so every cosine column 2i+1 uses 10000^{(2i+1)/d}; position 0 and PE[1, 0] (the visible tests) are unaffected, PE[1, 1] = cos(1 / 10000^{1/d}) instead of cos(1)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float32)[:, None]  # (T, 1)
    div = 10000 ** (torch.arange(d_model, dtype=torch.float32) / d_model)  # (d_model,): one per column
    angle = position / div  # (T, d_model)
    pe = torch.empty(T, d_model)
    pe[:, 0::2] = torch.sin(angle[:, 0::2])
    pe[:, 1::2] = torch.cos(angle[:, 1::2])
    return pe
