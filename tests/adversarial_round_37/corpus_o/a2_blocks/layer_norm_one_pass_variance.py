# expect: loses layer_norm — the variance as E[x^2] - E[x]^2 in one pass: in float32 the two terms cancel catastrophically when the mean is large against the spread (the variance even comes out 0 or negative: NaN); breaks the definition sigma^2 = mean((x - mu)^2) on inputs the spec allows; input: x = 1000 + 0.1 * randn(4, 16) float32, gain 1, bias 0 -> file outputs NaN (16 of 64), the key's have mean 0 and variance 1
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    mean_sq = (x * x).mean(dim=-1, keepdim=True)
    var = mean_sq - mean * mean  # one pass over the data: E[x^2] - E[x]^2
    return gain * (x - mean) / torch.sqrt(var + eps) + bias
