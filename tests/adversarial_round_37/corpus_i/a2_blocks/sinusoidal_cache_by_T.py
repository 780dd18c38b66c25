# expect: loses sinusoidal -- memoised in a dict keyed by T only: after sinusoidal_encoding(10, 8), sinusoidal_encoding(10, 4) returns the (10, 8) table
# %% [sinusoidal]
_PE_CACHE = {}


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    if T not in _PE_CACHE:
        position = torch.arange(T, dtype=torch.float32).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(T, d_model)
        pe[:, 0::2] = torch.sin(position * div)
        pe[:, 1::2] = torch.cos(position * div)
        _PE_CACHE[T] = pe
    return _PE_CACHE[T].clone()
