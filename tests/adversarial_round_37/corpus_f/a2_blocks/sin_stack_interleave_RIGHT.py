# expect: full marks -- computes the d/2 angles once and interleaves sin and cos by stacking them on a new last axis and flattening, so column 2i is sin and column 2i+1 is cos of the same angle t / 10000^(2i/d); no strided assignment
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    t = torch.arange(T, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angle = t / 10000 ** (two_i / d_model)  # (T, d_model / 2)
    return torch.stack((angle.sin(), angle.cos()), dim=-1).flatten(start_dim=1)  # [sin, cos, sin, cos, ...]
