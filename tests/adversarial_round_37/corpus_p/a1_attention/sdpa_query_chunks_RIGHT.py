# expect: full marks -- broadcasts the mask to the scores' shape once, then runs the attention in chunks of 64 queries (a memory-bounded loop) and concatenates; a fully masked query is found from the chunk's mask and its -inf scores replaced by 0 before the softmax, then its weights zeroed with torch.where
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
    T_q, T_k = q.shape[-2], k.shape[-2]
    scale = 1.0 / math.sqrt(q.shape[-1])
    lead = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    if mask is not None:
        mask = mask.expand(*torch.broadcast_shapes(mask.shape, (*lead, T_q, T_k)))
    outs, all_weights = [], []
    for s in range(0, T_q, 64):
        qc = q[..., s : s + 64, :]
        scores = (qc @ k.transpose(-2, -1)) * scale
        if mask is not None:
            mc = mask[..., s : s + 64, :]
            alive = mc.any(dim=-1, keepdim=True)
            scores = torch.where(mc, scores, torch.where(alive, float("-inf"), 0.0))
            w = torch.where(alive, torch.softmax(scores, dim=-1), 0.0)
        else:
            w = torch.softmax(scores, dim=-1)
        outs.append(w @ v)
        all_weights.append(w)
    return torch.cat(outs, dim=-2), torch.cat(all_weights, dim=-2)
