# expect: loses split_merge -- merge_heads concatenates the heads and then calls squeeze() to drop the head axis, which also drops every other size-1 axis: with B = 1 (or T = 1) the result loses its batch (time) axis; breaks "merge_heads(x): (B, h, T, d_head) to (B, T, h * d_head)" together with "down to the smallest sizes the part allows"; input: merge_heads(torch.randn(1, 2, 3, 4)) -> shape (3, 8) (spec: (1, 3, 8))
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    return torch.stack(x.chunk(n_heads, dim=-1), dim=1)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    return torch.cat(x.split(1, dim=1), dim=-1).squeeze()  # (B, 1, T, h * d_head) -> (B, T, h * d_head)
