# expect: full marks -- split with chunk + stack and merge with unbind + cat (copies, so any memory layout works)
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    return torch.stack(torch.chunk(x, n_heads, dim=-1), dim=1)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat(torch.unbind(x, dim=1), dim=-1)
