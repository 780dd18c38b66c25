# expect: loses sinusoidal -- the exponent 2i // d_model uses integer division, so every frequency is 1 (PE[t, 2i] = sin(t) for all i)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    pe = torch.zeros(T, d_model)
    t = torch.arange(T).unsqueeze(1)  # (T, 1)
    i = torch.arange(d_model // 2)  # (d_model/2,)
    angle = t / 10000 ** (2 * i // d_model)  # (T, d_model/2)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
