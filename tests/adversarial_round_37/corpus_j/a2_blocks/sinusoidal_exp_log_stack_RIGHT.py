# expect: full marks -- frequencies as exp(-2i ln(10000) / d) (as in the annotated transformer), sin and cos stacked on a new last axis and flattened so they interleave
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    inv_freq = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))  # (d/2,)
    angles = torch.outer(torch.arange(T).float(), inv_freq)  # (T, d/2)
    return torch.stack((angles.sin(), angles.cos()), dim=-1).reshape(T, d_model)
