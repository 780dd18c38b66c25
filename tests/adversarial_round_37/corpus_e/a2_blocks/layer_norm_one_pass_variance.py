# expect: loses layer_norm -- the variance as E[x^2] - E[x]^2 in one pass: the same number on inputs of mean ~0, but on vectors with a large offset (features around 1e3-1e4, as a residual stream drifts) the subtraction cancels catastrophically and the result is far from nn.LayerNorm's (or NaN when it goes negative); spec: "sigma^2 = (1/d) sum_i (x_i - mu)^2 ... Note the *biased* variance (divide by d) and epsilon inside the square root, as `nn.LayerNorm`"
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)  # (..., 1)
    var = (x * x).mean(dim=-1, keepdim=True) - mean * mean  # one pass: E[x^2] - E[x]^2, biased
    return gain * (x - mean) / torch.sqrt(var + eps) + bias
