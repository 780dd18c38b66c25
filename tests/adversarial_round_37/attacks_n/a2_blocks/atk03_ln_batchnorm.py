# expect: loses layer_norm -- LayerNorm computed by torch's batch_norm on the transposed rows (each row becomes a channel, normalised over its d entries): a library normalisation instead of the definition
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    d = x.shape[-1]
    rows = x.reshape(-1, d).transpose(0, 1)  # (d, N): N channels of d samples each
    normed = torch.nn.functional.batch_norm(rows, None, None, training=True, eps=eps)
    return normed.transpose(0, 1).reshape(x.shape) * gain + bias
