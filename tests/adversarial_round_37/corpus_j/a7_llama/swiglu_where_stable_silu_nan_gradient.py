# expect: loses swiglu -- SiLU written as a "stable" torch.where of two formulas; the branch not taken overflows (exp(z) = inf for large z) and its NaN leaks into the gradient: x = [[100.]], W_gate = W_up = W_down = [[1.]] gives the right value 10000 but x.grad = NaN
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""

    def silu(z):  # z * sigmoid(z), without exp overflow for either sign
        return torch.where(z >= 0, z / (1 + torch.exp(-z)), z * torch.exp(z) / (1 + torch.exp(z)))

    return (silu(x @ W_gate) * (x @ W_up)) @ W_down
