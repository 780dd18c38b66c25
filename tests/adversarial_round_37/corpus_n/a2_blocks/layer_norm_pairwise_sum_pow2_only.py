# expect: loses layer_norm -- sums over the features by repeated halving ('pairwise summation, more accurate than a running sum'), t[..., :half] + t[..., half:2*half], which silently drops the odd element left over whenever a length is odd, so the mean and the variance are right only when d is a power of two (the visible tests use d = 2 and d = 16); breaks the part's definition mu = (1/d) sum_i x_i, sigma^2 = (1/d) sum_i (x_i - mu)^2 over the last axis; input: x = randn(3, 6), gain ones(6), bias zeros(6) -> output differs from the key's (and from nn.LayerNorm(6)) by more than 0.5
# %% [layer_norm]
def _pairwise_sum(t):
    """Sum over the last axis by halving: pairwise summation, more accurate than a running sum."""
    while t.shape[-1] > 1:
        half = t.shape[-1] // 2
        t = t[..., :half] + t[..., half:2 * half]
    return t


def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    d = x.shape[-1]
    mean = _pairwise_sum(x) / d  # (..., 1)
    var = _pairwise_sum((x - mean) ** 2) / d  # (..., 1), biased
    return gain * (x - mean) / torch.sqrt(var + eps) + bias
