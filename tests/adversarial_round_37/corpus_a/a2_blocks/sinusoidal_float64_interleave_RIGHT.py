# expect: full marks -- computes the angles in float64 with exp/log frequencies and interleaves sin/cos with stack+reshape, then returns float32
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    t = torch.arange(T, dtype=torch.float64)[:, None]  # (T, 1)
    i = torch.arange(d_model // 2, dtype=torch.float64)[None, :]  # (1, d_model/2)
    angle = t * torch.exp(-(2 * i / d_model) * math.log(10000.0))  # t / 10000^(2i/d)
    pe = torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1)  # (T, d/2, 2): sin at 2i, cos at 2i+1
    return pe.reshape(T, d_model).to(torch.float32)
