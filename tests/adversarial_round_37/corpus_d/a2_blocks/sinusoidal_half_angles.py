# expect: loses sinusoidal -- the angles t / 10000^(2i/d) are computed in float16 (to save memory), so for all but the smallest t and i the sines and cosines are visibly off; spec: "$\mathrm{PE}[t, 2i] = \sin(t / 10000^{2i/d})$ and $\mathrm{PE}[t, 2i+1] = \cos(t / 10000^{2i/d})$"
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float16).unsqueeze(1)
    inv_freq = (1.0 / 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)).half()
    angle = (position * inv_freq).float()  # (T, d_model/2), in half precision
    pe = torch.empty(T, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
