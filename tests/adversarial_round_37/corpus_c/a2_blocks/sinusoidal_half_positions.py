# expect: loses sinusoidal -- positions built in float16 (exact only up to 2048): positions past 2048 are rounded to even numbers; spec: "positions 0..T-1", "PE[t, 2i] = sin(t / 10000^{2i/d})"
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float16).float().unsqueeze(1)  # (T, 1), built small to save memory
    even = torch.arange(0, d_model, 2, dtype=torch.float32)
    angle = position / 10000 ** (even / d_model)
    pe = torch.zeros(T, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
