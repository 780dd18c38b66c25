# expect: masks 0 (10/12): atk01 without the replaced `unique` (its baseline: the `overlapping` flag must fail it)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    B = lengths.shape[0]
    if bool((lengths == T).all()):
        return torch.ones((), dtype=torch.bool).expand(B, 1, T)  # nothing padded: one True, shared
    if bool((lengths == 0).all()):
        return torch.zeros((), dtype=torch.bool).expand(B, 1, T)  # all padding: one False, shared
    positions = torch.arange(T)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)
