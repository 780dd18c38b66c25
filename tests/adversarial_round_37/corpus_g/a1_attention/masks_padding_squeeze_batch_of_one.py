# expect: loses masks -- padding_mask squeezes lengths "in case it is (B, 1)": for a batch of one (lengths of shape (1,)) it returns a (T, 1) mask instead of (1, 1, T)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.ones(T, T, dtype=torch.bool).tril()


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    lengths = lengths.squeeze()  # accept (B,) or (B, 1)
    return (torch.arange(T) < lengths.unsqueeze(-1)).unsqueeze(1)
