# expect: loses layer_norm  -- picks the feature axis from the number of dims (1 for 2-D, else 2), so a single vector (d,) crashes and a 4-D input is normalised over the wrong axis; spec: "LayerNorm over the last axis of x (..., d)" / "For each vector x in R^d along the last axis"
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    feat = 1 if x.dim() == 2 else 2  # (N, d) or (B, T, d)
    mean = x.mean(dim=feat, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=feat, keepdim=True)  # biased
    return gain * (x - mean) / torch.sqrt(var + eps) + bias
