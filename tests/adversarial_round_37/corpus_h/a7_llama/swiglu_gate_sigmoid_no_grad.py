# expect: loses swiglu -- SiLU written as z * sigmoid(z) with the sigmoid computed under torch.no_grad() ("only the gate's value matters"): the forward pass equals the key's, but the gradients with respect to x and W_gate miss sigma'(z); differs on the gradients for any input, e.g. x = randn(2, 3, 8), d_ff = 12
# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    z = x @ W_gate
    with torch.no_grad():
        gate = torch.sigmoid(z)  # how open each unit's gate is
    return (z * gate * (x @ W_up)) @ W_down
