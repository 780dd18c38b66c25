# expect: full marks -- the Annotated Transformer's form: frequencies exp(2i * -(ln 10000 / d)) in float32, positions times frequencies, sin into even columns and cos into odd ones by index_copy (same formula, another float32 rounding of the frequencies)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * -(math.log(10000.0) / d_model))
    angle = torch.arange(T, dtype=torch.float32)[:, None] * div_term[None, :]
    pe = torch.empty(T, d_model)
    pe = pe.index_copy(1, torch.arange(0, d_model, 2), torch.sin(angle))
    pe = pe.index_copy(1, torch.arange(1, d_model, 2), torch.cos(angle))
    return pe
