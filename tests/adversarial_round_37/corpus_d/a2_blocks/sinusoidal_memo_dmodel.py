# expect: loses sinusoidal -- tables are memoised per d_model with the length of the first call, and later calls slice them, so a longer T than the first returns too few rows; spec: "(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1"
# %% [sinusoidal]
_TABLES = {}  # d_model -> table, built once


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    if d_model not in _TABLES:
        position = torch.arange(max(T, 64), dtype=torch.float32).unsqueeze(1)
        even = torch.arange(0, d_model, 2, dtype=torch.float32)
        angle = position / 10000 ** (even / d_model)
        pe = torch.zeros(position.shape[0], d_model)
        pe[:, 0::2] = torch.sin(angle)
        pe[:, 1::2] = torch.cos(angle)
        _TABLES[d_model] = pe
    return _TABLES[d_model][:T].clone()
