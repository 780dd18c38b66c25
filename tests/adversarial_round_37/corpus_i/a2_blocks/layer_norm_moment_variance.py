# expect: loses layer_norm -- variance as E[x^2] - E[x]^2: catastrophic cancellation in float32 for a large mean, e.g. x = 1000 + randn(4, 16) (error of several percent; negative variance -> NaN for x = 1e4 + 0.01 * randn)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    mean_sq = (x * x).mean(dim=-1, keepdim=True)
    var = mean_sq - mean * mean  # one pass over the data
    return gain * (x - mean) / torch.sqrt(var + eps) + bias
