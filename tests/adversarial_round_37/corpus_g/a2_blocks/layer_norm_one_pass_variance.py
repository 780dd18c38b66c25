# expect: loses layer_norm -- variance as E[x^2] - E[x]^2 (one pass): catastrophic cancellation for inputs with a large mean (e.g. 1e4 + randn), even a negative variance and NaN
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    mean_sq = (x * x).mean(dim=-1, keepdim=True)
    var = mean_sq - mean * mean  # biased variance, one pass over the data
    return gain * (x - mean) / torch.sqrt(var + eps) + bias
