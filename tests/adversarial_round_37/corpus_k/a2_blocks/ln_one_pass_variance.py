# expect: loses layer_norm -- one-pass variance E[x^2] - E[x]^2 cancels catastrophically in float32 when the mean is large against the spread (e.g. x = 1000 + 0.01 * randn(4, 16)): the "variance" comes out wrong (even negative -> NaN), far from nn.LayerNorm
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    mean_sq = (x * x).mean(dim=-1, keepdim=True)
    var = mean_sq - mean * mean  # one pass over the data: E[x^2] - E[x]^2 (biased)
    return gain * (x - mean) / torch.sqrt(var + eps) + bias
