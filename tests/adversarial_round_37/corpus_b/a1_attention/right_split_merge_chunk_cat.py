# expect: full marks -- list comprehensions over feature slices / torch.unbind with stack and cat instead of view + transpose
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    d_head = x.shape[-1] // n_heads
    return torch.stack([x[..., i * d_head:(i + 1) * d_head] for i in range(n_heads)], dim=1)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat([head for head in x.unbind(dim=1)], dim=-1)
