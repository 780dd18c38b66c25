# expect: full marks -- (relabelled: sizes are at least 1, as the notation page says) was: loses split_merge -- both functions let reshape infer a size with -1, which torch refuses for a tensor with no elements: a batch with T = 0 (or B = 0) raises instead of returning (B, h, 0, d_head) and (B, 0, d_model); spec: "`split_heads(x, n_heads)`: `(B, T, d_model)` to `(B, h, T, d_head)`" and "`merge_heads(x)`: the inverse, `(B, h, T, d_head)` to `(B, T, h * d_head)`"
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    B, T, _ = x.shape
    return x.reshape(B, T, n_heads, -1).transpose(1, 2)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, _, T, _ = x.shape
    return x.transpose(1, 2).reshape(B, T, -1)
