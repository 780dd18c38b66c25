# expect: loses layer_norm -- subtracts a mean taken with .detach() ('the statistics are constants of the row', the stop-gradient some batch-norm code uses), so every output value is exact but the gradient with respect to x misses the mean's term: the gradient of sum(LN(x) * g) no longer sums to zero over each row; breaks the hidden-tests line 'gradients flow back to x, gain and bias' (the true gradients, as nn.LayerNorm's); input: x = randn(4, 6, 16) * 5 + 3, gain 1 + 0.1 randn, bias 0.1 randn, random cotangent -> x.grad differs from the key's (max abs diff ~0.13), gain.grad and bias.grad agree
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    mean = x.mean(dim=-1, keepdim=True).detach()  # a statistic of the row: a constant for the backward pass
    centred = x - mean
    var = (centred ** 2).mean(dim=-1, keepdim=True)  # (..., 1), biased
    return gain * centred / torch.sqrt(var + eps) + bias
