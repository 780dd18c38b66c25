# expect: loses masks  -- padding_mask slices a precomputed arange(256), so for T > 256 the mask is (B, 1, 256); spec: "returns a boolean (B, 1, T) tensor that is True where key position j is a real token (j < lengths[b])"
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.ones(T, T, dtype=torch.bool).tril()


_POSITIONS = torch.arange(256)  # key positions, computed once


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    return (_POSITIONS[:T].unsqueeze(0) < lengths.unsqueeze(1)).unsqueeze(1)
