# expect: full marks -- style: a table per d_model kept in a function attribute, grown by doubling and built by the key's own element-wise formula, each call returning a fresh clone of its first T rows (state between calls that no caller can reach)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    tables = sinusoidal_encoding.__dict__.setdefault("tables", {})
    table = tables.get(d_model)
    if table is None or table.shape[0] < T:
        n = max(T, 2 * (0 if table is None else table.shape[0]), 64)
        position = torch.arange(n, dtype=torch.float32).unsqueeze(1)  # (n, 1)
        even = torch.arange(0, d_model, 2, dtype=torch.float32)  # the indices 2i
        angle = position / 10000 ** (even / d_model)  # (n, d_model/2)
        table = torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(n, d_model)
        tables[d_model] = table
    return table[:T].clone()  # a new tensor each call: the table stays the function's own
