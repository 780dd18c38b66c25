# expect: loses sinusoidal -- the frequency index runs over i = 0..d/2-1 but the exponent uses i/d instead of 2i/d, so every frequency but the first is wrong (position 0 and column 0 are unaffected, which is all the visible tests look at); spec: "PE[t, 2i] = sin(t / 10000^(2i/d)) and PE[t, 2i+1] = cos(t / 10000^(2i/d)) for i = 0, ..., d/2 - 1"
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    pos = torch.arange(T).float()[:, None]  # (T, 1)
    i = torch.arange(d_model // 2).float()[None, :]  # (1, d_model/2)
    angle = pos / torch.pow(10000.0, i / d_model)
    pe = torch.empty(T, d_model)
    pe[:, 0::2] = angle.sin()
    pe[:, 1::2] = angle.cos()
    return pe
