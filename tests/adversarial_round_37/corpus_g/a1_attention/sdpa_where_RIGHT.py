# expect: full marks -- matmul on a pre-scaled q, broadcast_tensors + torch.where to -inf; a fully masked row gets scores 0 before the softmax and is then multiplied by 0 (finite gradients)
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
    scale = k.shape[-1] ** -0.5
    scores = torch.matmul(q * scale, k.transpose(-1, -2))
    if mask is not None:
        mask, scores = torch.broadcast_tensors(mask, scores)
        alive = mask.any(-1, keepdim=True)
        # where the row has a key: -inf at the masked ones; a dead row: all zeros (no NaN)
        fill = torch.zeros_like(scores).masked_fill(alive, float("-inf"))
        scores = torch.where(mask, scores, fill)
        weights = torch.softmax(scores, dim=-1) * alive
    else:
        weights = torch.softmax(scores, dim=-1)
    return torch.matmul(weights, v), weights
