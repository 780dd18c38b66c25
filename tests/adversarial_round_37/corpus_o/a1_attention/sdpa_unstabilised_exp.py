# expect: loses sdpa — softmax written as exp(scores) / row sum with no max shift, so exp overflows to inf once a score passes ~88 (float32) and the weights become inf/inf = NaN; breaks 'each row of weights sums to 1' on the large-magnitude inputs the spec allows; input: q = 20 * randn(2, 3, 8), k = 20 * randn(2, 5, 8), v = randn(2, 5, 4) (float32) -> NaN weights and outputs where the key gives finite rows summing to 1
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention.

    Args:
        q: queries, shape (..., T_q, d_k).
        k: keys, shape (..., T_k, d_k).
        v: values, shape (..., T_k, d_v).
        mask: optional boolean tensor broadcastable to (..., T_q, T_k); True = may attend.

    Returns:
        (output, weights): output of shape (..., T_q, d_v) and the attention weights of shape
        (..., T_q, T_k). Each row of weights sums to 1, or is all zeros if every key is masked.
    """
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    e = torch.exp(scores)  # the textbook definition of the softmax
    if mask is not None:
        e = e * mask  # masked keys contribute nothing
    total = e.sum(dim=-1, keepdim=True)
    weights = torch.where(total > 0, e / torch.where(total > 0, total, torch.ones_like(total)), torch.zeros_like(e))
    return weights @ v, weights
