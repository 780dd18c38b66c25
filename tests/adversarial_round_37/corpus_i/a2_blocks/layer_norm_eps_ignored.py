# expect: loses layer_norm -- the eps argument is ignored (1e-5 hard-coded); the visible eps=0 test passes within allclose's rtol, but layer_norm(x, g, b, eps=0.1) on x = randn(3, 8) differs by ~5%
# %% [layer_norm]
EPS = 1e-5  # nn.LayerNorm's default


def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    centred = x - x.mean(dim=-1, keepdim=True)
    var = centred.pow(2).mean(dim=-1, keepdim=True)
    return gain * centred / torch.sqrt(var + EPS) + bias
