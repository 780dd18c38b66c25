# expect: loses rms_norm -- computes the row's scale 1 / sqrt(mean(x^2) + eps) under torch.no_grad() ('a statistic of the row, not a function to differentiate'), so the values are exact in both dtypes and the visible tests pass, but the gradient with respect to x misses the scale's own term (it is the gradient of x * constant); breaks the hidden-tests line 'gradients flow back to x and gain' (the true gradients, as LlamaRMSNorm's); input: x = randn(4, 6, 16) * 3 + 1, gain 1 + 0.1 randn(16), random cotangent -> x.grad differs from the key's by ~0.9; gain.grad equal
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    with torch.no_grad():  # the root mean square is a statistic of the row
        inv_rms = torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)
    return gain * x * inv_rms
