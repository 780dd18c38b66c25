# expect: loses sinusoidal (the exponent 2i/d formed with integer tensors and floor division, (2i) // d_model = 0 for every i < d/2, so every pair gets theta = 1: T 10, d 8: column 2 at position 1 is sin(1) = 0.841 for the answer, sin(0.1) = 0.0998 for the key; column 0 and position 0, all that the visible tests read, agree)
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T).unsqueeze(1)  # (T, 1), integer positions
    two_i = torch.arange(0, d_model, 2)  # (d_model/2,): the indices 2i
    angle = position / 10000.0 ** (two_i // d_model)  # (T, d_model/2)
    pe = torch.empty(T, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
