# expect: full marks -- computes in float64 with einsum and torch.where on broadcast tensors, then casts both outputs back to the inputs' dtype
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
    dtype = q.dtype
    q64, k64, v64 = q.double(), k.double(), v.double()
    scores = torch.einsum("...qd,...kd->...qk", q64, k64) / math.sqrt(q.shape[-1])
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        mask, scores = torch.broadcast_tensors(mask, scores)
        alive = mask.any(dim=-1, keepdim=True)  # queries that may attend some key
        keep = mask | ~alive  # a dead query keeps its finite scores (zeroed below): no NaN anywhere
        scores = torch.where(keep, scores, torch.full_like(scores, float("-inf")))
        weights = torch.softmax(scores, dim=-1) * alive
    out = torch.einsum("...qk,...kd->...qd", weights, v64)
    return out.to(dtype), weights.to(dtype)
