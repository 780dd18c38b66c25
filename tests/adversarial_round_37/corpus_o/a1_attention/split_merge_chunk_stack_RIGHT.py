# expect: full marks — split_merge: split_heads as torch.stack of x.chunk(n_heads, -1) along a new head axis, merge_heads as torch.cat of the heads along the features (copies, no view/reshape at all)
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    return torch.stack(x.chunk(n_heads, dim=-1), dim=1)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat([x[:, i] for i in range(x.shape[1])], dim=-1)
