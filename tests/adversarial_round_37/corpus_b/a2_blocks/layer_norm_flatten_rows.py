# expect: loses layer_norm -- flattens the leading axes with x.flatten(0, -2), which raises for a single vector (d,); spec: "LayerNorm over the last axis of x (..., d)" / "For each vector x in R^d along the last axis"
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    rows = x.flatten(0, -2)  # (N, d): one row per vector
    mean = rows.sum(dim=1, keepdim=True) / rows.shape[1]
    centred = rows - mean
    var = (centred * centred).sum(dim=1, keepdim=True) / rows.shape[1]  # biased
    out = centred / torch.sqrt(var + eps)
    return (gain * out + bias).view(x.shape)
