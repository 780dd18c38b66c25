# expect: loses sinusoidal -- uses 10000^(i/d) for the pair i instead of 10000^(2i/d): the frequencies fall half as fast; spec: "PE[t, 2i] = sin(t / 10000^{2i/d}) and PE[t, 2i+1] = cos(t / 10000^{2i/d})"
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    pe = torch.zeros(T, d_model)
    t = torch.arange(T, dtype=torch.float32)
    for i in range(d_model // 2):  # pair i fills columns 2i and 2i + 1
        freq = 1.0 / 10000 ** (i / d_model)
        pe[:, 2 * i] = torch.sin(t * freq)
        pe[:, 2 * i + 1] = torch.cos(t * freq)
    return pe
