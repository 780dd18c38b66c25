# expect: loses sinusoidal -- the table is kept at module level per d_model (grown to twice the largest T asked) and each call returns a slice of it, a view of that shared table: a caller that edits the encodings it got (adding to them in place, say) changes what every later call returns; "Position t gets the vector with PE[t, 2i] = sin(...), PE[t, 2i+1] = cos(...)"; pe = sinusoidal_encoding(10, 8); pe.zero_(); then sinusoidal_encoding(10, 8)[0]: key [0, 1, 0, 1, 0, 1, 0, 1], this answer all zeros
# %% [sinusoidal]
_PE_TABLES = {}  # d_model -> (rows, d_model) table, grown when a longer T is asked


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    table = _PE_TABLES.get(d_model)
    if table is None or table.shape[0] < T:
        rows = max(2 * T, 16)
        position = torch.arange(rows, dtype=torch.float32)[:, None]
        freq = 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
        table = torch.zeros(rows, d_model)
        table[:, 0::2] = torch.sin(position / freq)
        table[:, 1::2] = torch.cos(position / freq)
        _PE_TABLES[d_model] = table
    return table[:T]
