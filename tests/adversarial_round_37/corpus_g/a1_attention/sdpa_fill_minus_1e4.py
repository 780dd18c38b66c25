# expect: loses sdpa -- masks with the finite value -1e4 (the fp16 trick): when all real scores lie below about -1e4 the masked keys get nonzero (even all the) weight
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
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        # a large negative number instead of -inf: no NaN, and it also works in half precision
        weights = torch.softmax(scores.masked_fill(~mask, -1e4), dim=-1)
        weights = weights * mask.any(dim=-1, keepdim=True)  # a query with no key at all gets zeros
    return weights @ v, weights
