# expect: full marks -- split_heads with unflatten of the last axis into (n_heads, d_head) and movedim of the head axis to position 1 (reads the input by shape, works on any strides); merge_heads by unbinding the head axis and concatenating the heads along the features, in head order; same values, dtypes and gradients as the key
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    return x.unflatten(-1, (n_heads, x.shape[-1] // n_heads)).movedim(-2, 1)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat(x.unbind(dim=1), dim=-1)
