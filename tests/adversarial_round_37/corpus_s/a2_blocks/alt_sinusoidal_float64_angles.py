# expect: full marks -- the angles formed in float64 from exp(-2i/d ln 10000), sin and cos interleaved by stack and flatten, cast to float32 at the end (closer to the formula than float32 angles at long lengths)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    i = torch.arange(d_model // 2, dtype=torch.float64)
    inv_freq = torch.exp(-(2 * i / d_model) * math.log(10000.0))  # 1 / 10000^(2i/d)
    angle = torch.arange(T, dtype=torch.float64)[:, None] * inv_freq[None, :]  # (T, d/2)
    return torch.stack([angle.sin(), angle.cos()], dim=-1).flatten(-2).to(torch.float32)
