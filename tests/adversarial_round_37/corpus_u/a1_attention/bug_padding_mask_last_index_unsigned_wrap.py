# expect: loses masks (padding_mask written as j <= lengths[b] - 1, "the last real index": lengths in uint8 with a 0, lengths [0, 2] T 4 gives row 0 all True (0 - 1 wraps to 255) where the key gives all False; int64/int32/int16 lengths, and uint8 without a 0, agree)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    last = lengths - 1  # (B,): the index of each sequence's last real token (-1 when it is empty)
    return (torch.arange(T)[None, :] <= last[:, None]).unsqueeze(1)  # (B, 1, T)
