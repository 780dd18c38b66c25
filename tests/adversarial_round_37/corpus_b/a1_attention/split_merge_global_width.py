# expect: loses split_merge -- merge_heads reshapes to a d_model remembered in a module global by the last split_heads call, so it fails (or is wrong) on a tensor that was not just split with the same width; spec: "merge_heads(x): the inverse, (B, h, T, d_head) to (B, T, h * d_head)"
# %% [split_merge]
_last_d_model = None


def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    global _last_d_model
    B, T, d_model = x.shape
    _last_d_model = d_model  # merge_heads puts the width back
    return x.reshape(B, T, n_heads, d_model // n_heads).permute(0, 2, 1, 3)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, h, T, d_head = x.shape
    return x.permute(0, 2, 1, 3).reshape(B, T, _last_d_model)
