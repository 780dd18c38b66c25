# expect: loses layer_norm -- mu and sigma^2 are computed from x.detach() (treated as constants, as in old `.data` code): the forward values are LayerNorm's, but the gradient with respect to x is g / sqrt(sigma^2 + eps) alone, without the terms through mu and sigma^2, so a block trained with it is not trained through nn.LayerNorm's function; spec: "For each vector x ... LN(x) = g * (x - mu) / sqrt(sigma^2 + eps) + b, mu = (1/d) sum_i x_i, sigma^2 = (1/d) sum_i (x_i - mu)^2" (mu and sigma^2 are functions of x) and "hidden tests compare your functions with torch's own modules (`nn.LayerNorm`, ...)"
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    stats = x.detach()  # the statistics are only numbers
    mean = stats.mean(dim=-1, keepdim=True)  # (..., 1)
    var = ((stats - mean) ** 2).mean(dim=-1, keepdim=True)  # (..., 1), biased
    return gain * (x - mean) / torch.sqrt(var + eps) + bias
