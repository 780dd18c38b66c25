# expect: loses layer_norm — eps added after the square root, (x - mu) / (sqrt(var) + eps), where the spec puts it inside, sqrt(var + eps); invisible at unit scale, wrong for small activations; input: x = 1e-3 * randn(3, 8) float32, gain 1, bias 0, eps 1e-5 -> outputs differ from the key's by ~1.7 (key |out| <= 0.73, file's up to 2.03)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    centred = x - x.mean(dim=-1, keepdim=True)
    std = centred.pow(2).mean(dim=-1, keepdim=True).sqrt()
    return gain * centred / (std + eps) + bias
