# expect: loses sdpa -- saves memory with in-place ops: masked_fill_ on the scores (harmless) and then masked_fill_(~has_key, 0) on the softmax's own output, which softmax saved for its backward; the values are right, but once a mask is given, any backward raises "one of the variables needed for gradient computation has been modified by an inplace operation". Breaks "It must be differentiable with respect to q, k and v ... its gradients must stay finite ... even when a query is fully masked" and "gradients flow back to q, k and v"; input: q, k, v = randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 6) requiring grad, mask = the visible (3, 5) mask with row 2 all False, out.sum().backward() -> key: finite grads; this answer: RuntimeError (without a mask: equal to the key)
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
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # a fresh tensor: safe to edit in place
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
        return weights @ v, weights
    has_key = mask.any(dim=-1, keepdim=True)
    scores.masked_fill_(~mask & has_key, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    weights.masked_fill_(~has_key, 0.0)  # fully masked queries: NaN -> 0, without another (..., T_q, T_k) tensor
    return weights @ v, weights
