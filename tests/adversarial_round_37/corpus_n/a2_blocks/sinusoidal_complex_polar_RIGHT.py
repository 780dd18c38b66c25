# expect: full marks -- builds each (sin, cos) pair as a complex number: torch.polar(1, angle) = cos + i sin, viewed as real pairs with torch.view_as_real, flipped to (sin, cos) and flattened so that sin lands in column 2i and cos in column 2i + 1; the angles are formed exactly as the key forms them (float32), so the values agree with the key to float rounding for every T (past 5000) and even d_model, float32 output
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    angle = position / 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)  # (T, d_model/2)
    unit = torch.polar(torch.ones_like(angle), angle)  # cos + i sin, complex64
    return torch.view_as_real(unit).flip(-1).reshape(T, d_model)  # (sin, cos) side by side per pair
