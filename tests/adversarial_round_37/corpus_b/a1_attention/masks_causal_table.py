# expect: loses masks -- causal_mask slices a module-level 1024x1024 table: wrong (too small) for T > 1024 and returns a view that shares storage between calls; spec: "causal_mask(T) returns a boolean (T, T) tensor that is True where query i may attend key j"
# %% [masks]
_MAX_T = 1024
_CAUSAL = torch.tril(torch.ones(_MAX_T, _MAX_T, dtype=torch.bool))  # built once


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return _CAUSAL[:T, :T]


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)
