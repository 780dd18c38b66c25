# expect: loses masks  -- causal_mask slices a (512, 512) table built once, so causal_mask(T) for T > 512 has the wrong shape (512, 512); spec: "causal_mask(T) returns a boolean (T, T) tensor that is True where query i may attend key j" (no upper limit on T)
# %% [masks]
_CAUSAL = torch.tril(torch.ones(512, 512, dtype=torch.bool))  # built once; longer than any context we use


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return _CAUSAL[:T, :T]


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)
