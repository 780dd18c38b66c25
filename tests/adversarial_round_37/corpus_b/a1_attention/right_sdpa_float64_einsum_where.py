# expect: full marks -- computes in float64 with einsum and torch.where (no masked_fill), handles fully masked rows by zero scores before the softmax, casts back to the inputs' dtype
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
    dtype = torch.promote_types(torch.promote_types(q.dtype, k.dtype), v.dtype)
    q64, k64, v64 = q.double(), k.double(), v.double()
    scores = torch.einsum("...qd,...kd->...qk", q64, k64) * (1.0 / math.sqrt(q.shape[-1]))
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        scores, allowed = torch.broadcast_tensors(scores, mask)
        any_key = allowed.any(dim=-1, keepdim=True)
        # a row with no key gets plain zeros as scores (finite softmax, finite gradients), then zero weights
        safe = torch.where(allowed | ~any_key, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
        safe = torch.where(any_key, safe, torch.zeros_like(safe))
        weights = torch.where(any_key, torch.softmax(safe, dim=-1), torch.zeros_like(safe))
    out = torch.einsum("...qk,...kd->...qd", weights, v64)
    return out.to(dtype), weights.to(dtype)
