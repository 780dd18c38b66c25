# expect: full marks -- heads cut with chunk and stacked on a new axis; merged back by unbinding the head axis and concatenating
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    return torch.stack(torch.chunk(x, n_heads, dim=-1), dim=1)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat(torch.unbind(x, dim=1), dim=-1)
