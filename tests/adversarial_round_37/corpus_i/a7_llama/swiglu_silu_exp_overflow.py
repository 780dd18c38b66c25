# expect: loses swiglu -- SiLU written z / (1 + exp(-z)): exp overflows to inf for z < -89 (float32), the forward survives (z / inf = -0) but the gradient is NaN, e.g. x = 100 * randn(2, 8) with W_gate = randn(8, 12)
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    z = x @ W_gate
    silu = z / (1 + torch.exp(-z))
    return (silu * (x @ W_up)) @ W_down
