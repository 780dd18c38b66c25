# expect: full marks -- computed element by element with Python's math in double precision, then one tensor of the default float dtype
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    rows = []
    for t in range(T):
        row = []
        for i in range(d_model // 2):
            angle = t / 10000.0 ** (2 * i / d_model)
            row += [math.sin(angle), math.cos(angle)]
        rows.append(row)
    return torch.tensor(rows, dtype=torch.float64).reshape(T, d_model).to(torch.get_default_dtype())
