# expect: loses layer_norm -- uses eps as a floor on the variance (var.clamp(min=eps)) instead of adding it: the same wherever the variance is far above eps, up to a relative 1e-5 / (2 var), but for vectors whose variance is near or below eps the scale is different. Breaks "eps inside the square root", sqrt(sigma^2 + eps), as nn.LayerNorm; input: x = 1e-3 * randn(4, 16) (variance ~1e-6), gain ones, bias zeros, eps 1e-5 -> key's rows have standard deviation 0.307, this answer's 0.323 (max abs diff 0.066); x = 2e-3 * randn: 0.544 against 0.650 (0.28); even x = randn: 3.4e-5
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return gain * (x - mean) / torch.sqrt(var.clamp(min=eps)) + bias  # eps keeps the division away from zero
