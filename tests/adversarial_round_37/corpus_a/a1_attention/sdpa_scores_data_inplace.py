# expect: loses sdpa  -- masks the scores in place on scores.data, which cuts the graph: with a mask, no gradient reaches q or k; spec: "It must be differentiable with respect to q, k and v (build it from torch operations)"
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
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        has_key = mask.any(dim=-1, keepdim=True)
        scores = scores.data  # in-place masking on a tensor autograd does not complain about
        scores.masked_fill_(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights
