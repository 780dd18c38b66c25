# expect: full marks, or loses sinusoidal at most -- an honest slip: sinusoidal_encoding sets torch's default dtype to float64 for precision and never sets it back; the other three parts are the key's and should keep their points
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    torch.set_default_dtype(torch.float64)  # precise angles (never set back: the slip)
    position = torch.arange(T, dtype=torch.float64).unsqueeze(1)  # (T, 1)
    even = torch.arange(0, d_model, 2, dtype=torch.float64)  # (d_model/2,): the indices 2i
    angle = position / 10000 ** (even / d_model)  # (T, d_model/2)
    pe = torch.zeros(T, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
