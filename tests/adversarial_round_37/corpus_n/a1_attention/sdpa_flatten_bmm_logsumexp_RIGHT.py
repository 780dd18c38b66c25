# expect: full marks -- flattens all leading dimensions (of q, k, v and the mask, broadcast together) into one batch axis with expand + reshape, computes the scores with torch.bmm and the weights as exp(scores - logsumexp(scores)), with fully masked rows given zero scores before the logsumexp and zero weights after; same values, dtypes and gradients as the key for none/one/several leading dims, masks of every broadcastable shape, fully masked rows and non-contiguous inputs
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
    T_q, d_k = q.shape[-2:]
    T_k, d_v = k.shape[-2], v.shape[-1]
    lead = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2], () if mask is None else mask.shape[:-2])
    n = math.prod(lead)
    qf = q.expand(*lead, T_q, d_k).reshape(n, T_q, d_k)
    kf = k.expand(*lead, T_k, d_k).reshape(n, T_k, d_k)
    vf = v.expand(*lead, T_k, d_v).reshape(n, T_k, d_v)
    scores = torch.bmm(qf, kf.transpose(1, 2)) / math.sqrt(d_k)  # (n, T_q, T_k)
    if mask is None:
        weights = torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
    else:
        allowed = mask.expand(*lead, T_q, T_k).reshape(n, T_q, T_k)
        empty = ~allowed.any(dim=-1, keepdim=True)  # (n, T_q, 1): queries that may attend nothing
        scores = scores.masked_fill(empty, 0.0).masked_fill(~allowed & ~empty, float("-inf"))
        weights = torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True)).masked_fill(empty, 0.0)
    out = torch.bmm(weights, vf)
    return out.reshape(*lead, T_q, d_v), weights.reshape(*lead, T_q, T_k)
