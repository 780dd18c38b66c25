# expect: loses split_merge -- "Keep the function names and arguments as given": split_heads names its second argument `h` (the notation's name for it) instead of `n_heads`; every positional call, the visible tests' and part 4's, works, and a call by keyword, split_heads(x, n_heads=4), raises TypeError
# %% [split_merge]
def split_heads(x, h):
    """(B, T, d_model) -> (B, h, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    B, T, d_model = x.shape
    return x.reshape(B, T, h, d_model // h).transpose(1, 2)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)
