# expect: loses swiglu (subtle) -- flattens the leading axes with x.view(-1, d) and restores them with .view: right for contiguous x, but raises "view size is not compatible with input tensor's size and stride" for a non-contiguous x whose leading axes cannot be merged, e.g. x = randn(5, 2, d).transpose(0, 1) (a (2, 5, d) view); the spec allows any x (..., d)
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    d = x.shape[-1]
    rows = x.view(-1, d)  # (N, d): every position a row
    hidden = F.silu(rows @ W_gate) * (rows @ W_up)  # (N, d_ff)
    return (hidden @ W_down).view(*x.shape[:-1], W_down.shape[1])
