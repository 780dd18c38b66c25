# expect: loses sdpa -- scores divided by sqrt(k.size(-2)) (the number of keys T_k) instead of sqrt(d_k): right exactly when T_k == d_k, as in the first visible test (2 keys of width 2); breaks "A = softmax(Q K^T / sqrt(d_k))"; input: q = randn(1, 4), k = randn(3, 4), v = randn(3, 2) (T_k = 3, d_k = 4) -> weights differ from the spec's
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention: returns (output (..., T_q, d_v), weights (..., T_q, T_k))."""
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(k.size(-2))
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        any_key = mask.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(~mask & any_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~any_key, 0.0)
    return torch.matmul(weights, v), weights
