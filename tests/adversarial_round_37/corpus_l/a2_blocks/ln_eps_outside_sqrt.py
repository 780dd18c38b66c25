# expect: loses layer_norm -- divides by (sigma + eps) instead of sqrt(sigma^2 + eps): indistinguishable when sigma is large next to sqrt(eps) (the visible tests use sigma = 5 or eps = 0), far off when the variance is of the order of eps; breaks "epsilon inside the square root, as nn.LayerNorm"; input: layer_norm(torch.tensor([[1e-3, -1e-3]]), ones(2), zeros(2)) -> about [0.99, -0.99] (spec and nn.LayerNorm: about [0.30, -0.30])
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mu = x.mean(dim=-1, keepdim=True)
    sigma = (x - mu).pow(2).mean(dim=-1, keepdim=True).sqrt()  # biased standard deviation
    return gain * (x - mu) / (sigma + eps) + bias
