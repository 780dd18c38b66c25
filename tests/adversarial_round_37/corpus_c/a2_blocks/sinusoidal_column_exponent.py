# expect: loses sinusoidal -- uses the column index j in the exponent (10000^(j/d)), so the cos column 2i+1 gets 10000^((2i+1)/d); spec: "PE[t, 2i+1] = cos(t / 10000^{2i/d})"
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    column = torch.arange(d_model, dtype=torch.float32)  # (d_model,)
    angle = position / 10000 ** (column / d_model)  # (T, d_model)
    even = (torch.arange(d_model) % 2 == 0)
    return torch.where(even, torch.sin(angle), torch.cos(angle))
