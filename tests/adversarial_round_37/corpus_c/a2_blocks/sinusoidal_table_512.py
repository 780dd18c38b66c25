# expect: loses sinusoidal -- a fixed table of 512 positions, sliced: T > 512 gets only 512 rows; spec: "(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1"
# %% [sinusoidal]
_MAX_LEN = 512


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(_MAX_LEN, dtype=torch.float32).unsqueeze(1)  # (512, 1): a table, as in the book's modules
    even = torch.arange(0, d_model, 2, dtype=torch.float32)
    angle = position / 10000 ** (even / d_model)
    table = torch.zeros(_MAX_LEN, d_model)
    table[:, 0::2] = torch.sin(angle)
    table[:, 1::2] = torch.cos(angle)
    return table[:T]
