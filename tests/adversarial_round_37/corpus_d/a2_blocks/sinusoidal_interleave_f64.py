# expect: full marks -- angles in float64 via exp/log, sin and cos interleaved with stack + flatten, returned as float32
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    t = torch.arange(T, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angle = t * torch.exp(-two_i / d_model * math.log(10000.0))  # t / 10000^(2i/d)
    return torch.stack([angle.sin(), angle.cos()], dim=-1).flatten(-2).to(torch.float32)
