# expect: loses sinusoidal (subtle) -- the Annotated Transformer's PositionalEncoding(max_len=5000): a table of 5000 positions built once per d_model and kept between calls, returned as table[:T]; right for T <= 5000, but a longer sequence gets only 5000 rows, e.g. sinusoidal_encoding(6000, 8) has shape (5000, 8)
# %% [sinusoidal]
MAX_LEN = 5000
_PE_TABLES = {}  # d_model -> (MAX_LEN, d_model), built on the first call


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    if d_model not in _PE_TABLES:
        position = torch.arange(MAX_LEN, dtype=torch.float32).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * -(math.log(10000.0) / d_model))
        pe = torch.zeros(MAX_LEN, d_model)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        _PE_TABLES[d_model] = pe
    return _PE_TABLES[d_model][:T].clone()
