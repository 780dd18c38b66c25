# expect: loses sdpa -- softmax over every key, then zero the masked keys and renormalise: when a masked key's score exceeds the allowed keys' by more than ~104 (float32) the allowed weights underflow to 0 and the row is all zeros instead of summing to 1; spec: "where `mask` is False the query must give the key weight exactly 0, and the remaining weights of the row still sum to 1"
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
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., T_q, T_k)
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights * mask  # drop the masked keys ...
        total = weights.sum(dim=-1, keepdim=True)
        weights = weights / torch.where(total > 0, total, torch.ones_like(total))  # ... and renormalise
    return weights @ v, weights
