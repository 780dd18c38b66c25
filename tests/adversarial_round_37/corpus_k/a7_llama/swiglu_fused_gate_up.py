# expect: full marks -- one matmul with the gate and up projections concatenated ([W_gate | W_up], (d, 2 d_ff)), split back into the two halves: SiLU(x W_gate) * (x W_up), then W_down; gradients reach W_gate and W_up through the concatenation; any leading dims and dtype
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    gate, up = (x @ torch.cat([W_gate, W_up], dim=1)).split(W_gate.shape[1], dim=-1)
    return (gate * torch.sigmoid(gate) * up) @ W_down
