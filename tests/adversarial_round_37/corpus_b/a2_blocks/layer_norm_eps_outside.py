# expect: loses layer_norm -- adds eps to the standard deviation, not to the variance: wrong for vectors of small spread; spec: "Note the biased variance (divide by d) and eps inside the square root, as nn.LayerNorm"
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    std = (x - mean).pow(2).mean(dim=-1, keepdim=True).sqrt()  # biased
    return gain * (x - mean) / (std + eps) + bias
