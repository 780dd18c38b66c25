# expect: full marks -- split_heads stacks the n_heads equal chunks of the last axis on a new axis 1, merge_heads concatenates the heads' slices in head order: same values, dtype and gradients as the key for contiguous and non-contiguous inputs
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    return torch.stack(x.chunk(n_heads, dim=-1), dim=1)  # chunk i is head i's contiguous slice


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat(x.unbind(dim=1), dim=-1)  # heads side by side, in order
