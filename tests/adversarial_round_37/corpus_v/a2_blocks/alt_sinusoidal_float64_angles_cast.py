# expect: full marks -- the angles t / 10000^(2i/d) formed in float64 and their sin and cos cast to float32 at the end: the table is the spec's formula at float32's precision (more exact than the key's float32 angles: at t = 8,200 they differ by up to ~5e-4)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    t = torch.arange(T, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)[None, :]
    angle = t / torch.pow(torch.tensor(10000.0, dtype=torch.float64), two_i / d_model)
    pe = torch.stack([angle.sin(), angle.cos()], dim=-1).reshape(T, d_model)  # sin, cos side by side per pair
    return pe.to(torch.float32)
