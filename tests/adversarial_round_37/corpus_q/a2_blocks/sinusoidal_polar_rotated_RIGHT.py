# expect: full marks -- style: each (sin, cos) pair as one complex number i * exp(-i * angle) = sin(angle) + i cos(angle) from torch.polar, laid out as (real, imag) pairs by torch.view_as_real and flattened; float32 angles as the key's
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float32).unsqueeze(1)
    even = torch.arange(0, d_model, 2, dtype=torch.float32)
    angle = position / 10000 ** (even / d_model)  # (T, d_model / 2)
    turned = 1j * torch.polar(torch.ones_like(angle), -angle)  # sin + i cos
    return torch.view_as_real(turned).reshape(T, d_model).contiguous()
