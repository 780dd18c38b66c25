# expect: loses layer_norm -- default eps changed to 1e-6 (T5/Llama's value): with the default eps the output differs from nn.LayerNorm for low-variance inputs (std ~1e-3)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-6):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    centred = x - mean
    var = centred.pow(2).mean(dim=-1, keepdim=True)
    return centred * torch.rsqrt(var + eps) * gain + bias
