# expect: loses sdpa -- softmax over all keys, then zero the masked ones and renormalise: when a masked key's score dominates by >~100 the kept weights underflow to 0 and the row is all zeros instead of summing to 1
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
    d_k = q.shape[-1]
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), dim=-1)
    if mask is not None:
        # drop the masked keys and share their probability among the others
        weights = weights * mask.to(weights.dtype)
        weights = weights / weights.sum(dim=-1, keepdim=True).clamp(min=1e-12)
    return weights @ v, weights
