# expect: loses layer_norm -- divides by (std + eps) instead of sqrt(var + eps): invisible for unit-scale inputs, wrong for vectors of small variance; spec: "Note the *biased* variance (divide by $d$) and $\epsilon$ inside the square root, as `nn.LayerNorm`"
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    centred = x - x.mean(dim=-1, keepdim=True)
    std = centred.pow(2).mean(dim=-1, keepdim=True).sqrt()
    return gain * centred / (std + eps) + bias
