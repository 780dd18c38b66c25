# expect: loses sinusoidal -- gives every column j its own frequency 10000^(j/d) and takes sin on even, cos on odd columns, so the cosine of pair i uses exponent (2i+1)/d instead of sharing 2i/d with its sine; spec: "PE[t, 2i] = sin(t / 10000^(2i/d)) and PE[t, 2i+1] = cos(t / 10000^(2i/d))"
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    pos = torch.arange(T, dtype=torch.float32)[:, None]  # (T, 1)
    j = torch.arange(d_model, dtype=torch.float32)[None, :]  # (1, d_model)
    angle = pos / 10000 ** (j / d_model)  # one frequency per column
    return torch.where(j.long() % 2 == 0, torch.sin(angle), torch.cos(angle))
