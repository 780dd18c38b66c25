# expect: loses sinusoidal -- the exponents 2i/d are made with torch.linspace(0, 1, d/2), which includes the end point: they run 0, 1/(d/2 - 1), ..., 1 instead of 0, 2/d, ..., (d-2)/d; only pair 0 (the one the visible tests read, with position 0) is right; breaks "PE[t, 2i] = sin(t / 10000^{2i/d}) ... for i = 0, ..., d/2 - 1"; input: sinusoidal_encoding(2, 8)[1, 2] = sin(10000^{-1/3}) = 0.0464 (spec: sin(10000^{-1/4}) = 0.0998)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    exponents = torch.linspace(0, 1, d_model // 2)  # 2i / d for the d/2 pairs
    angles = torch.arange(T, dtype=torch.float32)[:, None] / 10000 ** exponents[None, :]
    pe = torch.empty(T, d_model)
    pe[:, 0::2] = angles.sin()
    pe[:, 1::2] = angles.cos()
    return pe
