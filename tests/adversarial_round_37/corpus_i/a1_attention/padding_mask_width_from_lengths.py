# expect: loses masks -- padding_mask sizes its last axis by lengths.max() instead of T: padding_mask(tensor([2, 1]), 4) has shape (2, 1, 2), not (2, 1, 4)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    i = torch.arange(T)
    return i[:, None] >= i[None, :]


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    width = int(lengths.max())  # the longest sequence sets the width
    positions = torch.arange(width)
    return (positions[None, :] < lengths[:, None])[:, None, :]
