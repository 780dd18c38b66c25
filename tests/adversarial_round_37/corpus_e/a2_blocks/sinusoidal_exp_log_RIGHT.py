# expect: full marks -- the frequencies as exp(-2i ln(10000) / d) (the PyTorch tutorial's form) and the table built by stacking sin and cos on a new last axis and flattening, which interleaves them: the same PE[t, 2i] = sin(t / 10000^(2i/d)), PE[t, 2i+1] = cos(t / 10000^(2i/d)); spec: "Position t gets the vector with PE[t, 2i] = sin(t / 10000^{2i/d}) and PE[t, 2i+1] = cos(t / 10000^{2i/d}) for i = 0, ..., d/2 - 1"
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    inv_freq = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))  # (d/2,)
    angle = torch.arange(T, dtype=torch.float32)[:, None] * inv_freq[None, :]  # (T, d/2)
    return torch.stack([angle.sin(), angle.cos()], dim=-1).reshape(T, d_model)  # sin, cos, sin, cos, ...
