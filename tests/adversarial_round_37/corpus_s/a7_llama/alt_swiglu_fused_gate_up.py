# expect: full marks -- one matmul on [W_gate | W_up] (as fused checkpoints store them), split, SiLU written as g * sigmoid(g)
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    gate, up = (x @ torch.cat([W_gate, W_up], dim=1)).split(W_gate.shape[1], dim=-1)
    return (gate * torch.sigmoid(gate) * up) @ W_down
