# expect: full marks -- split via unflatten/movedim and merge via movedim/flatten (works for non-contiguous inputs too)
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    return x.unflatten(-1, (n_heads, x.shape[-1] // n_heads)).movedim(-2, 1)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return x.movedim(1, -2).flatten(-2)
