# expect: full marks, or loses sinusoidal at most -- an honest slip: sinusoidal_encoding switches autograd off for good (torch.set_grad_enabled(False), "a table needs no gradients"); its value is right, and the other three parts are the key's, so they should keep their points
# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    torch.set_grad_enabled(False)  # a fixed table: no gradients needed (left off for good: the slip)
    position = torch.arange(T, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    even = torch.arange(0, d_model, 2, dtype=torch.float32)  # (d_model/2,): the indices 2i
    angle = position / 10000 ** (even / d_model)  # (T, d_model/2)
    pe = torch.zeros(T, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
