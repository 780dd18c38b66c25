# expect: full marks — sdpa: einsum scores, max-shifted exp, the unnormalised exp multiplied into v first and the row sum divided out afterwards (flash-attention order), fully masked rows handled by a clamped denominator
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
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    shift = scores.amax(dim=-1, keepdim=True)
    shift = torch.where(torch.isfinite(shift), shift, torch.zeros_like(shift)).detach()
    e = torch.exp(scores - shift)  # exactly 0 at masked keys; a fully masked row is all 0
    denom = e.sum(dim=-1, keepdim=True)
    safe = torch.where(denom > 0, denom, torch.ones_like(denom))
    out = torch.einsum("...qk,...kd->...qd", e, v) / safe  # normalise after the product
    return out, e / safe
