# expect: loses swiglu -- SiLU written as z / (1 + exp(-z)): the forward is fine (-0 for very negative z) but for z < -88 (float32) exp(-z) = inf and autograd computes 0 * inf = NaN, so the gradients of x and W_gate are NaN (e.g. x = ones(1, 1), W_gate = -100, W_up = 2, W_down = 3)
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    gate = x @ W_gate
    silu = gate / (1 + torch.exp(-gate))  # z * sigmoid(z)
    return (silu * (x @ W_up)) @ W_down
