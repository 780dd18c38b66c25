# expect: loses layer_norm -- LayerNorm as torch's F.local_response_norm (a library normalisation layer, not on the forbidden list) of the centred input, its window spanning every feature, so that it divides by sqrt(var + eps)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    d = x.shape[-1]
    centred = (x - x.mean(dim=-1, keepdim=True)).reshape(-1, d, 1)
    out = torch.nn.functional.local_response_norm(centred, size=2 * d - 1, alpha=(2 * d - 1) / d, beta=0.5, k=eps)
    return out.reshape(x.shape) * gain + bias
