# expect: loses split_merge -- merge_heads reads d_model from a module global that split_heads last wrote, so merging any (B, h, T, d_head) tensor other than the last split's width is wrong or raises; spec: "`merge_heads(x)`: the inverse, `(B, h, T, d_head)` to `(B, T, h * d_head)`, concatenating the heads' features in head order"
# %% [split_merge]
_WIDTH = [None]  # d_model of the last split: merge_heads restores it


def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    B, T, d_model = x.shape
    _WIDTH[0] = d_model
    return x.view(B, T, n_heads, d_model // n_heads).transpose(1, 2)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, h, T, d_head = x.shape
    width = _WIDTH[0] if _WIDTH[0] is not None else h * d_head
    return x.transpose(1, 2).reshape(B, -1, width)
