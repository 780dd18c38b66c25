# expect: loses layer_norm  -- a fast path keyed on the values of gain and bias: when gain is all ones and bias all zeros (a fresh nn.LayerNorm's affine) it returns the normalised x without touching them, so gain and bias drop out of the graph; the release says gradients flow back to x, gain and bias; x randn(4, 16), gain ones(16) and bias zeros(16) requiring grad, out.sum() * weights backward: the key's gain.grad is sum over rows of normalised x times the upstream gradient, bias.grad its column sums; the answer leaves both None (values equal, bit for bit; random gain and bias: the same values and gradients up to float32 rounding, the product associated differently)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)  # biased, as nn.LayerNorm
    normed = (x - mean) / torch.sqrt(var + eps)
    if bool((gain == 1).all()) and bool((bias == 0).all()):
        return normed  # the identity affine (nn.LayerNorm's initial one): nothing to scale or shift
    return gain * normed + bias
