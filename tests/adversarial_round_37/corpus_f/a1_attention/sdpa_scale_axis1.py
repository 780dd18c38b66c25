# expect: loses sdpa -- scales by sqrt(q.size(1)), which is d_k only for a 2-D (T, d) input and is T_q (or h) for batched ones; spec: "A = softmax(Q K^T / sqrt(d_k))" and "your function must work for (T, d), (B, T, d) and (B, h, T, d) inputs alike"
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
    d_k = q.size(1)  # the width of a query
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        empty = ~mask.any(dim=-1, keepdim=True)  # queries with no key at all
        scores = scores.masked_fill(~mask, float("-inf")).masked_fill(empty, 0.0)
        weights = torch.softmax(scores, dim=-1).masked_fill(empty, 0.0)
    return torch.matmul(weights, v), weights
