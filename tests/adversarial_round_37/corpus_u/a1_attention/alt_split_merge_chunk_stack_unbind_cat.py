# expect: full marks (split_heads as a stack of the d_head-wide chunks on a new axis 1, a copy; merge_heads as the concatenation of the heads unbound along axis 1: no view, reshape or transpose at all)
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    return torch.stack(x.chunk(n_heads, dim=-1), dim=1)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat(x.unbind(dim=1), dim=-1)
