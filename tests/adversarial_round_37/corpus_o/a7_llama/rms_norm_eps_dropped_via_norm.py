# expect: loses rms_norm — normalises with the vector norm, x * sqrt(d) / ||x||, which is RMSNorm with eps = 0 whatever eps is given; the spec adds eps inside the square root; invisible at unit scale, wrong for small activations (and a zero row gives NaN instead of 0); input: x = 1e-4 * randn(3, 16), gain ones, eps 1e-6 -> file rows have mean square 1, key's ~0.01 (max abs diff ~2.4)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    d = x.shape[-1]
    return gain * x * (math.sqrt(d) / torch.linalg.vector_norm(x, dim=-1, keepdim=True))
