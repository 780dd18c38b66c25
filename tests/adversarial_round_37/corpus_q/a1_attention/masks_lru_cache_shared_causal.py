# expect: loses masks -- causal_mask memoised with functools.lru_cache returns the same tensor object on every call with the same T, so a caller that edits the mask it got (as part 1's visible test edits its own: `mask[2] = False`) changes what every later call returns; "causal_mask(T) returns a boolean (T, T) tensor that is True where ... j <= i"; m = causal_mask(3); m[2] = False; then causal_mask(3): key [[T,F,F],[T,T,F],[T,T,T]], this answer [[T,F,F],[T,T,F],[F,F,F]]
# %% [masks]
import functools


@functools.lru_cache(maxsize=None)
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.ones(T, T, dtype=torch.bool).tril()  # built once per T


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    return (torch.arange(T)[None, None, :] < lengths.reshape(-1, 1, 1))
