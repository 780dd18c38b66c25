# expect: full marks -- each position's pairs as unit complex numbers torch.polar(1, t / 10000^(2i/d)) in complex128, view_as_real gives (cos, sin), flipped to (sin, cos) and flattened, then cast to float32 (a new tensor)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float64)
    inv_freq = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)  # 10000^(-2i/d)
    angle = torch.outer(position, inv_freq)  # (T, d_model / 2)
    turns = torch.polar(torch.ones_like(angle), angle)  # cos(angle) + i sin(angle), complex128
    pairs = torch.view_as_real(turns).flip(-1)  # (T, d_model / 2, 2): (sin, cos), a copy
    return pairs.reshape(T, d_model).to(torch.float32)
