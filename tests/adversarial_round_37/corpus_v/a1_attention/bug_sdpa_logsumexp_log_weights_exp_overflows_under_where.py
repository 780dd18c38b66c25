# expect: loses sdpa -- (relabelled: written as right) log-weights as scores - logsumexp(scores), a fully masked row made safe by torch.where; at scores far below -10,000 (all keys reachable, logsumexp about -1e5) the masked entries compute exp(0 - lse) = inf in the branch torch.where drops, and its gradient 0 * inf is NaN: the spec asks for finite gradients, and says the tests send scores of extreme magnitude
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
    scores = torch.einsum("...qd,...kd->...qk", q, k) * (1.0 / math.sqrt(q.shape[-1]))
    if mask is None:
        weights = torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
    else:
        mask = torch.broadcast_to(mask, scores.shape)
        alive = mask.any(dim=-1, keepdim=True)
        keep = mask & alive
        safe = torch.where(keep, scores, torch.zeros_like(scores))  # no -inf anywhere in the graph
        shifted = safe.masked_fill(~keep, float("-inf"))
        lse = torch.where(alive, torch.logsumexp(torch.where(alive, shifted, torch.zeros_like(shifted)), dim=-1, keepdim=True), torch.zeros_like(alive, dtype=scores.dtype))
        weights = torch.where(keep, torch.exp(safe - lse), torch.zeros_like(scores))
    return torch.einsum("...qk,...kd->...qd", weights, v), weights
