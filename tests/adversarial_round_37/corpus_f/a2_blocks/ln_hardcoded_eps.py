# expect: loses layer_norm -- hard-codes eps = 1e-5 and ignores the eps argument (the visible eps=0.0 check passes within allclose's rtol); spec: the signature "layer_norm(x, gain, bias, eps=1e-5)" and "LN(x) = g * (x - mu) / sqrt(sigma^2 + eps) + b"
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mu = x.mean(-1, keepdim=True)
    xc = x - mu
    var = (xc * xc).mean(-1, keepdim=True)
    return xc * torch.rsqrt(var + 1e-5) * gain + bias  # nn.LayerNorm's epsilon
