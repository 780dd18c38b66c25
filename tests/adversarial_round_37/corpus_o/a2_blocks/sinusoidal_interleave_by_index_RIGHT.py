# expect: full marks — sinusoidal: angles from exp(-(2i) ln(10000) / d) in float64 (the PyTorch tutorial's form, one exp instead of a power), sin/cos written into the even/odd columns by index_copy, result float32
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    inv_freq = torch.exp(two_i * (-math.log(10000.0) / d_model))
    angle = torch.arange(T, dtype=torch.float64)[:, None] * inv_freq[None, :]
    pe = torch.empty(T, d_model, dtype=torch.float64)
    pe = pe.index_copy(1, torch.arange(0, d_model, 2), angle.sin())
    pe = pe.index_copy(1, torch.arange(1, d_model, 2), angle.cos())
    return pe.float()
