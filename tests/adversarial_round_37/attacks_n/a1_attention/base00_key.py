# expect: loses nothing -- the answer key unchanged (baseline)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T)  # (T,)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)  # (B, 1, T)
