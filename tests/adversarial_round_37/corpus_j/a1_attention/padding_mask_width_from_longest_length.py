# expect: loses masks -- padding_mask sizes its key axis by lengths.max() instead of T: padding_mask(torch.tensor([1, 2]), 4) has shape (2, 1, 2), not (2, 1, 4)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.ones(T, T).tril().bool()


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    longest = int(lengths.max())  # the batch is padded up to its longest sequence
    positions = torch.arange(longest)
    real = positions.unsqueeze(0) < lengths.unsqueeze(1)  # (B, T)
    return real.unsqueeze(1)
