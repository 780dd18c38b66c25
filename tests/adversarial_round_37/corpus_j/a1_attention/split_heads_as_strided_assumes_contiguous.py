# expect: loses split_merge -- split_heads builds a zero-copy view with as_strided and strides computed for a contiguous input: a slice of a fused projection, x = torch.arange(48.).view(1, 2, 24)[..., :8], split_heads(x, 2)[0, 0, 1] is [8, 9, 10, 11] instead of x[0, 1, :4] = [24, 25, 26, 27]
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    # no copy: entry (b, i, t, j) of the result is x[b, t, i * d_head + j]
    return x.as_strided(
        size=(B, n_heads, T, d_head),
        stride=(T * d_model, d_head, d_model, 1),
        storage_offset=x.storage_offset(),
    )


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, h, T, d_head = x.shape
    return x.permute(0, 2, 1, 3).reshape(B, T, h * d_head)
