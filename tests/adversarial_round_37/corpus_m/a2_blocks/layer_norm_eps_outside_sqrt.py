# expect: loses layer_norm -- divides by (std + eps) instead of sqrt(var + eps); breaks 'epsilon inside the square root, as nn.LayerNorm'; input: x=[[1.0, 1.001]], gain 1, bias 0, eps 1e-5 -> key +-0.156, this +-0.980
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)  # (..., 1)
    std = x.std(dim=-1, keepdim=True, unbiased=False)  # (..., 1), biased
    return gain * (x - mean) / (std + eps) + bias  # eps keeps the division safe
