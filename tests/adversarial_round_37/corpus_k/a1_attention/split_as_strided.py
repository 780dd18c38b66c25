# expect: loses split_merge -- split_heads re-strides storage with as_strided assuming a contiguous input: on a slice of a fused projection (e.g. x = (t @ W_qkv)[..., d:2*d], strides (T*3d, 3d, 1), storage offset d) it reads the wrong entries
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    # a zero-copy view: element (b, i, t, j) lies at b*T*d_model + t*d_model + i*d_head + j
    return x.as_strided((B, n_heads, T, d_head), (T * d_model, d_head, d_model, 1))


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)
