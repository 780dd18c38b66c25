# expect: loses masks -- padding_mask builds its positions from lengths.max() instead of T, so it is (B, 1, max(lengths)) whenever every sequence is shorter than T; spec: "returns a boolean (B, 1, T) tensor that is True where key position j is a real token"
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    i = torch.arange(T)
    return i[None, :] <= i[:, None]


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    longest = int(lengths.max())  # no key beyond the longest sequence is real
    positions = torch.arange(min(T, longest))
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)
