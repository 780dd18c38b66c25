# expect: loses layer_norm -- divides by (std + eps) instead of sqrt(var + eps); indistinguishable at unit variance, visibly different for small-variance rows (var ~ eps) or a large eps; spec: "LN(x) = g * (x - mu) / sqrt(sigma^2 + eps) + b ... Note the biased variance (divide by d) and eps inside the square root, as nn.LayerNorm"
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    std = (x - mean).pow(2).mean(dim=-1, keepdim=True).sqrt()  # biased standard deviation
    return gain * (x - mean) / (std + eps) + bias
