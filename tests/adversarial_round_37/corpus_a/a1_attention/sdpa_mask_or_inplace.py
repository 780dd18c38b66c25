# expect: loses sdpa  -- "mask |= dead" rewrites the caller's mask (fully masked rows become all True); spec: "it must not modify its inputs"
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
        dead = ~mask.any(dim=-1, keepdim=True)  # queries with no key at all
        mask |= dead  # let them see every key for now (no NaN); they are zeroed below
        weights = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
        weights = weights.masked_fill(dead, 0.0)
    return weights @ v, weights
