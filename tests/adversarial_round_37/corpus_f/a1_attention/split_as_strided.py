# expect: loses split_merge -- split_heads builds a zero-copy view with as_strided and hard-codes the strides of a contiguous (B, T, d_model) tensor; for a transposed or sliced x (a valid (B, T, d_model) input) it reads the wrong memory; spec: "split_heads(x, n_heads): (B, T, d_model) to (B, h, T, d_head), so that split_heads(x, h)[:, i] equals x[:, :, i * d_head:(i + 1) * d_head]"
# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    # no copy: d_head elements between heads, d_model between positions, T * d_model between sequences
    return x.as_strided((B, n_heads, T, d_head), (T * d_model, d_head, d_model, 1))


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)
