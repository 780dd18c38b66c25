# expect: loses layer_norm -- centres into a new tensor and then normalises it in place (centred /= sqrt(var + eps)); the values are right, but the variance was computed from centred ** 2, whose backward needs centred as it was, so any backward raises "one of the variables needed for gradient computation has been modified by an inplace operation". Breaks "gradients flow back to x, gain and bias"; input: x = randn(4, 6, 16) * 5 + 3 requiring grad, gain 1 + 0.1 randn(16), bias randn(16), out.sum().backward() -> key: finite grads; this answer: RuntimeError (under torch.no_grad(): equal to the key)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    centred = x - x.mean(dim=-1, keepdim=True)  # a new tensor: x is left alone
    var = (centred ** 2).mean(dim=-1, keepdim=True)  # biased
    centred /= torch.sqrt(var + eps)  # normalise in place, no second (..., d) buffer
    return gain * centred + bias
