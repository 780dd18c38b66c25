# expect: loses sdpa  -- an early exit for a call whose mask is False everywhere returns fresh zero tensors built from no input, so the output has no graph back to q, k and v; part 1 says the function is differentiable with respect to q, k and v and its gradients stay finite when a query is fully masked; q, k, v randn(1, 4) requiring grad, mask [[False]]: the key's out.sum().backward() gives zero gradients, the answer's raises "element 0 of tensors does not require grad" (values equal: zeros)
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
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
        return weights @ v, weights
    if not mask.any():
        # nothing may be attended anywhere: every weight and every output is 0, no need to compute
        batch = torch.broadcast_shapes(scores.shape[:-2], v.shape[:-2])
        out = torch.zeros(*batch, scores.shape[-2], v.shape[-1], dtype=v.dtype)
        return out, torch.zeros(*batch, *scores.shape[-2:], dtype=scores.dtype)
    has_key = mask.any(dim=-1, keepdim=True)  # (..., T_q, 1)
    scores = scores.masked_fill(~mask & has_key, float("-inf"))
    weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights
