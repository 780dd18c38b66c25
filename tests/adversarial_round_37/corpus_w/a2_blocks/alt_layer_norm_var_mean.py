# expect: full marks -- torch.var_mean with correction=0 is the biased variance of the definition (computed by torch in two passes, so a row offset by 4,096 keeps its precision), eps inside the root via rsqrt; differentiable in x, gain and bias, finite gradients for a constant row when eps > 0, any leading dimensions (none too), float32 and float64
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    var, mean = torch.var_mean(x, dim=-1, correction=0, keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps) * gain + bias
