# expect: loses sinusoidal -- the cosine at feature 2i+1 uses the exponent (2i+1)/d instead of 2i/d: sinusoidal_encoding(2, 4)[1, 1] is cos(1 / 10000**0.25) = 0.995 instead of cos(1) = 0.540
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float32)[:, None]  # (T, 1)
    feature = torch.arange(d_model, dtype=torch.float32)[None, :]  # (1, d_model)
    angle = position / torch.pow(10000.0, feature / d_model)  # (T, d_model)
    pe = torch.empty(T, d_model)
    pe[:, 0::2] = torch.sin(angle[:, 0::2])  # even features: sine
    pe[:, 1::2] = torch.cos(angle[:, 1::2])  # odd features: cosine
    return pe
