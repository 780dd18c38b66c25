# expect: loses layer_norm -- centres x in place (x -= mean): the output equals the key's, and LayerNorm's shift invariance hides it from every visible check (even in parts 3-4), but the caller's x is changed, and an x that requires grad (a leaf) raises "a leaf Variable that requires grad is being used in an in-place operation"; differs on any x with non-zero row means, e.g. x = torch.randn(4, 6, 16) * 5 + 3
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    x -= x.mean(dim=-1, keepdim=True)  # centre each vector
    var = (x * x).mean(dim=-1, keepdim=True)  # biased variance
    return gain * x / torch.sqrt(var + eps) + bias
