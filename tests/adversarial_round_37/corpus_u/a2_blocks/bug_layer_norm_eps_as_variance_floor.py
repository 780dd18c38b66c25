# expect: loses layer_norm (eps used as a floor under the variance, sqrt(max(var, eps)), not added inside the root: x = 1e-3 * randn(4, 16), eps 1e-5: the answer is 5.2% larger than the key; eps 0, or a variance far above eps (the visible tests), agree to 5e-7)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)  # biased
    return gain * (x - mean) / torch.sqrt(var.clamp(min=eps)) + bias  # eps keeps the root away from 0
