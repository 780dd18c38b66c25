# expect: loses nothing -- an honest, right causal_mask and padding_mask built from Python lists (about 10 s for 8,200 positions, under the 30 s a call may take): at worst a slow part may cost its own points, never the other parts' (control for the time-limit spill of atk13)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tensor([[j <= i for j in range(T)] for i in range(T)], dtype=torch.bool).reshape(T, T)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    rows = [[j < int(n) for j in range(T)] for n in lengths.tolist()]
    return torch.tensor(rows, dtype=torch.bool).reshape(len(rows), 1, T)
