# expect: loses sinusoidal -- the exponent uses the pair index i over d_model (10000^(i/d)) instead of 2i/d_model, so every frequency but the first is wrong; breaks 'PE[t, 2i] = sin(t / 10000^(2i/d))'; input: sinusoidal_encoding(2, 8)[1, 2] -> key sin(1/10000^(2/8)) = sin(0.1) = 0.0998, this sin(1/10000^(1/8)) = 0.311 (the visible tests only look at position 0 and column 0)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    i = torch.arange(d_model // 2, dtype=torch.float32)  # (d_model/2,): the pair index i
    angle = position / 10000 ** (i / d_model)  # (T, d_model/2)
    pe = torch.zeros(T, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
