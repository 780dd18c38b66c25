# expect: full marks -- as many Llama implementations do, the gate and up projections are one product with [W_gate | W_up] (concatenated along d_ff) cut into halves; each half is exactly x @ W_gate and x @ W_up (the same dot products), SiLU by F.silu (stable in both tails, finite gradients at gates of -150), any leading dimensions, gradients reach all three weights through the concatenation
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    d_ff = W_gate.shape[1]
    gate, up = (x @ torch.cat([W_gate, W_up], dim=1)).split(d_ff, dim=-1)
    return (F.silu(gate) * up) @ W_down
