# expect: full marks -- when W_up is the very object W_gate (tied projections) the product x @ W_gate is computed once and used for both; otherwise two products; SiLU written as g * sigmoid(g); gradients reach W_gate through both uses, as they would through two products
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    g = x @ W_gate
    u = g if W_up is W_gate else x @ W_up  # the same matrix: the same product
    return (g * torch.sigmoid(g) * u) @ W_down
