# expect: loses sinusoidal -- slices a table cached per d_model for 512 positions, so T > 512 gives only 512 rows (and the cached tensor is shared between calls); spec: "(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1"
# %% [sinusoidal]
_MAX_LEN = 512
_tables = {}


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    if d_model not in _tables:  # build the table once per width, as nn.Module buffers do
        position = torch.arange(_MAX_LEN, dtype=torch.float32).unsqueeze(1)
        inv_freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
        pe = torch.zeros(_MAX_LEN, d_model)
        pe[:, 0::2] = torch.sin(position * inv_freq)
        pe[:, 1::2] = torch.cos(position * inv_freq)
        _tables[d_model] = pe
    return _tables[d_model][:T]
