# expect: loses split_merge (subtle) -- split_heads reads x's memory with as_strided and strides computed for a contiguous (B, T, d_model) tensor ("no copy"): right for contiguous x, wrong for the non-contiguous views the spec names, e.g. the slice qkv[..., d:2 * d] of a fused projection qkv = randn(2, 5, 3 * d) (it returns entries of the wrong rows and features)
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    # no copy: read x's memory directly as (B, h, T, d_head)
    return x.as_strided((B, n_heads, T, d_head), (T * d_model, d_head, d_model, 1), x.storage_offset())


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)
