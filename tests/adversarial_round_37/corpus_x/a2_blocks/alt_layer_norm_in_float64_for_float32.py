# expect: full marks -- LayerNorm computed in float64 (a float32 input is cast up and the result cast back; a float64 input stays float64), so a float32 result is the float32 rounding of the exact value, at least as precise as the key's, also with features offset by 4,096; biased variance, eps inside the root, eps = 0 allowed; a constant row gives (x - mean) = 0 exactly and finite gradients (eps > 0); gradients reach x, gain and bias through the casts
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    wide = torch.promote_types(x.dtype, torch.float64)
    x64 = x.to(wide)
    centred = x64 - x64.mean(dim=-1, keepdim=True)
    var = centred.square().mean(dim=-1, keepdim=True)
    y = centred * torch.rsqrt(var + eps) * gain.to(wide) + bias.to(wide)
    return y.to(x.dtype)
