# expect: loses swiglu -- forms SiLU(z) as z * sigmoid(z).detach() ('the sigmoid is only the gate's opening'), so the values are exact and the visible tests pass, but the gradient through the gate misses z sigma'(z): d SiLU/dz becomes sigma(z) instead of sigma(z)(1 + z(1 - sigma(z))), wrong for x and W_gate (W_up and W_down stay right); breaks the hidden-tests line 'gradients flow back to x, W_gate, W_up and W_down' (the true gradients); input: d = 8, d_ff = 12, x = randn(2, 5, 8), random weights and cotangent -> W_gate.grad differs from the key's by ~38 (x.grad by ~14; W_up, W_down equal)
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    z = x @ W_gate
    gate = z * torch.sigmoid(z).detach()  # SiLU: z times its gate's opening
    return (gate * (x @ W_up)) @ W_down
