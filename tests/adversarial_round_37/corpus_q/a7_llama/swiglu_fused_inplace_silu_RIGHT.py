# expect: full marks -- style: W_gate and W_up fused into one (d, 2 d_ff) matmul, split with chunk, SiLU applied in place (F.silu(..., inplace=True)) on the fresh gate half, the product in place too (mul_), then W_down; nothing saved for backward is overwritten
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    both = x @ torch.cat([W_gate, W_up], dim=1)  # (..., 2 d_ff)
    gate, up = both.chunk(2, dim=-1)
    gate = F.silu(gate.clone(), inplace=True)
    return gate.mul_(up) @ W_down
