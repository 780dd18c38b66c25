# expect: full marks -- angles formed in float64 and cast to float32 at the end (more accurate than the key's float32 angles at large T; agrees to ~1e-6 for T <= 2048)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    t = torch.arange(T, dtype=torch.float64)
    inv_freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angle = torch.outer(t, inv_freq)
    return torch.stack([angle.sin(), angle.cos()], dim=-1).reshape(T, d_model).float()
