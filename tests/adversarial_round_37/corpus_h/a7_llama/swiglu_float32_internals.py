# expect: loses swiglu (subtle) -- "mixed precision" habit: the three products are computed in float32 (x.float(), W.float()) and the result cast back, so float64 inputs get float32 precision (relative error ~5e-7 in the output, ~3e-5 absolute in the gradients, against ~1e-16 for the key); identical for float32; differs on float64 inputs, e.g. x = randn(7, 64, dtype=float64) with float64 weights, d_ff = 172
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    h = x.float()
    gated = F.silu(h @ W_gate.float()) * (h @ W_up.float())
    return (gated @ W_down.float()).to(x.dtype)
