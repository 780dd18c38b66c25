# expect: loses sinusoidal -- frequency 10000^(i/d) instead of 10000^(2i/d) for pair i (the index of the pair, not of the feature): PE[1, 2] = sin(1/10000^(1/8)) instead of sin(1/10000^(2/8)) at d_model = 8
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    pos = torch.arange(T, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)[None, :]  # pair index
    angle = pos / torch.pow(10000.0, i / d_model)
    pe = torch.empty(T, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
