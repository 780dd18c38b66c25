# expect: full marks -- scores in float64 (upcast inside, cast back to the inputs' dtype), einsum, weights as exp(scores - logsumexp), masked keys by torch.where, a fully masked query's row kept finite and zeroed afterwards
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
    scores = torch.einsum("...qd,...kd->...qk", q.double(), k.double()) / math.sqrt(q.shape[-1])
    if mask is not None:
        has_key = mask.any(dim=-1, keepdim=True)
        # a fully masked query keeps its raw (finite) scores here, and gets zeros below
        scores = torch.where(mask | ~has_key, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    weights = torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
    if mask is not None:
        weights = torch.where(has_key, weights, torch.zeros((), dtype=weights.dtype))
    out = torch.einsum("...qk,...kd->...qd", weights, v.double())
    return out.to(dtype), weights.to(dtype)
