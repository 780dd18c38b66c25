# expect: loses sinusoidal -- gives every column j its own frequency 1 / 10000^(j / d_model), so the cosine column 2i + 1 uses the exponent (2i + 1) / d instead of sharing its sine's 2i / d; column 0 and position 0 are right, which is all the visible tests look at; breaks 'PE[t, 2i+1] = cos(t / 10000^{2i/d})'; input: sinusoidal_encoding(2, 4)[1, 1] -> cos(1 / 10000^0.25) = cos(0.1) = 0.995 instead of cos(1) = 0.540
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    column = torch.arange(d_model)  # (d_model,)
    angle = position / 10000 ** (column.float() / d_model)  # (T, d_model): each column its frequency
    return torch.where(column % 2 == 0, torch.sin(angle), torch.cos(angle))  # sin on even columns, cos on odd
