# expect: loses sdpa  -- additive -inf mask + nan_to_num: forward gives zeros for a fully masked query, but the gradient w.r.t. q (and k) is NaN; spec: "its gradients must stay finite (no NaN) even when a query is fully masked"
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
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        # additive mask, as in many codebases: 0 where allowed, -inf where masked
        bias = torch.zeros(mask.shape, dtype=scores.dtype).masked_fill(~mask, float("-inf"))
        scores = scores + bias
    weights = torch.softmax(scores, dim=-1)
    weights = torch.nan_to_num(weights, nan=0.0)  # a fully masked row is 0/0: make it zeros
    return weights @ v, weights
