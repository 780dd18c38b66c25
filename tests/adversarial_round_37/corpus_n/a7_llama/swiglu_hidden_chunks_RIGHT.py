# expect: full marks -- never forms the (..., d_ff) activations whole: sums the contributions of blocks of 64 hidden units, (SiLU(x W_gate[:, block]) * x W_up[:, block]) W_down[block], which is the same sum as the key's product split over d_ff; values agree to float rounding and gradients for x, W_gate, W_up and W_down agree, for d_ff below, at and above multiples of 64, none/one/several leading dims, float32 and float64
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    d_ff, block = W_up.shape[1], 64
    out = None
    for start in range(0, d_ff, block):  # 64 hidden units at a time
        cols = slice(start, start + block)
        part = (F.silu(x @ W_gate[:, cols]) * (x @ W_up[:, cols])) @ W_down[cols]
        out = part if out is None else out + part
    return out
