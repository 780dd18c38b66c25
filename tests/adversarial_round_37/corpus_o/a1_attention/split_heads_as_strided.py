# expect: loses split_merge — split_heads builds its view with as_strided from the strides a contiguous (B, T, d_model) tensor would have, so it reads memory, not the tensor: wrong contents for a slice of a fused projection or a transpose (the spec: 'read its input by its shape, not by where its entries lie in memory'); input: fused = randn(2, 3, 24); x = fused[..., 8:16]; split_heads(x, 2)[:, 1] differs from x[:, :, 4:8] (the key's equals it)
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    # a zero-copy view: (b, i, t, j) -> b*T*d_model + t*d_model + i*d_head + j
    return x.as_strided((B, n_heads, T, d_head), (T * d_model, d_head, d_model, 1), x.storage_offset())


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)
