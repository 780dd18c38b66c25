# expect: full marks -- angles formed in float64 through exp(-ln(10000) 2i/d), sin and cos interleaved by stack + flatten, cast to the default float dtype at the end (more accurate than the key's float32 angles for long sequences: ~1e-3 apart at T = 100000)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    t = torch.arange(T, dtype=torch.float64)
    inv_freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angle = torch.outer(t, inv_freq)  # (T, d_model / 2)
    pe = torch.stack([angle.sin(), angle.cos()], dim=-1).flatten(1)  # sin, cos, sin, cos, ...
    return pe.to(torch.get_default_dtype())
