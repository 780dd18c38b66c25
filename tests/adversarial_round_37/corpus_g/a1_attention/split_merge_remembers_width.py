# expect: loses split_merge -- merge_heads takes d_model from a global set by the last split_heads call instead of from its input: wrong shape (or an error) when merging a tensor split elsewhere or with another width
# %% [split_merge]
_d_model = None  # the width of the last tensor split, so that merge_heads can restore it


def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    global _d_model
    B, T, _d_model = x.shape
    return x.reshape(B, T, n_heads, _d_model // n_heads).permute(0, 2, 1, 3)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, T = x.shape[0], x.shape[2]
    return x.permute(0, 2, 1, 3).reshape(B, T, _d_model)
