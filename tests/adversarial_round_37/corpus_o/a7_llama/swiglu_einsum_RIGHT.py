# expect: full marks — swiglu: both projections in one einsum against the stacked (2, d, d_ff) weights, SiLU written as g * sigmoid(g), the down projection by einsum
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    gate, up = torch.einsum("...d,kdf->k...f", x, torch.stack([W_gate, W_up]))
    return torch.einsum("...f,fd->...d", gate * torch.sigmoid(gate) * up, W_down)
