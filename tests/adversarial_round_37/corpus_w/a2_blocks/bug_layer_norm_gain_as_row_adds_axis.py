# expect: loses layer_norm -- the hidden-test list says layer_norm takes "any number of leading dimensions (none, one or several)" and the docstring returns (..., d): gain and bias are reshaped to (1, d) "to broadcast over the batch", which is harmless for 2-D and 3-D inputs but turns an input of shape (d,) (no leading dimension) into an output of shape (1, d)
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    g, b = gain.view(1, -1), bias.view(1, -1)  # a row, broadcast over the batch
    return g * (x - mean) / torch.sqrt(var + eps) + b
