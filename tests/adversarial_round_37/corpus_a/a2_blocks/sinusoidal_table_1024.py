# expect: loses sinusoidal  -- slices a table precomputed for 1024 positions (per d_model), so T > 1024 returns only 1024 rows; spec: "(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1" (no maximum length)
# %% [sinusoidal]
_PE_TABLES = {}  # d_model -> table for positions 0..MAX_LEN-1
MAX_LEN = 1024


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    if d_model not in _PE_TABLES:
        position = torch.arange(MAX_LEN, dtype=torch.float32).unsqueeze(1)
        inv_freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
        pe = torch.zeros(MAX_LEN, d_model)
        pe[:, 0::2] = torch.sin(position * inv_freq)
        pe[:, 1::2] = torch.cos(position * inv_freq)
        _PE_TABLES[d_model] = pe
    return _PE_TABLES[d_model][:T]
