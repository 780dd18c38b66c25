# expect: loses sdpa -- scales q in place (q /= sqrt(d_k)), so the caller's q is changed after every call (and a leaf q that requires grad raises); spec: "it must not modify its inputs"
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
    if not q.requires_grad:
        q /= math.sqrt(q.shape[-1])  # scale the smaller tensor (T_q x d_k) instead of the scores
    else:
        q = q / math.sqrt(q.shape[-1])
    scores = q @ k.transpose(-2, -1)
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        has_key = mask.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights
