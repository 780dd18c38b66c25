# expect: loses sinusoidal — the exponent 2i/d is formed by floor division of integer tensors (arange(0, d, 2) // d), which is 0 for every pair, so every column pair uses frequency 1; position 0 and column 0 (all the visible tests read) are right; input: sinusoidal_encoding(10, 8)[1, 2] is sin(1) = 0.841, the key's sin(1 / 10000^(2/8)) = 0.1
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    two_i = torch.arange(0, d_model, 2)  # the even indices 2i
    freq = 1.0 / torch.pow(10000.0, two_i // d_model)  # 10000^(2i/d)
    angle = torch.arange(T).unsqueeze(1) * freq  # (T, d_model / 2)
    return torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(T, d_model).float()
