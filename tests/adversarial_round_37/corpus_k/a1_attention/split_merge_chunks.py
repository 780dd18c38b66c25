# expect: full marks -- split_heads stacks x.chunk(h, -1) along a new head axis and merge_heads concatenates x.unbind(1) along the features: head i is exactly features i*d_head:(i+1)*d_head, works on any strides (copies, never views by memory layout)
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    return torch.stack(x.chunk(n_heads, dim=-1), dim=1)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat(x.unbind(dim=1), dim=-1)
