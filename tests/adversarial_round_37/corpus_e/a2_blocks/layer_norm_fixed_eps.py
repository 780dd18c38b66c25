# expect: loses layer_norm -- the epsilon is hard-coded as nn.LayerNorm's default 1e-5 and the `eps` argument is ignored: layer_norm(x, g, b, eps=1e-12) (BERT's) or eps=0.1 gives the same as eps=1e-5 (the visible test with eps=0.0 passes because 1/sqrt(1 + 1e-5) is within allclose of 1); spec: "LN(x) = g * (x - mu) / sqrt(sigma^2 + epsilon) + b ... epsilon inside the square root" with the signature `layer_norm(x, gain, bias, eps=1e-5)`
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)  # (..., 1)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)  # (..., 1), biased
    return gain * (x - mean) / torch.sqrt(var + 1e-5) + bias  # nn.LayerNorm's epsilon
