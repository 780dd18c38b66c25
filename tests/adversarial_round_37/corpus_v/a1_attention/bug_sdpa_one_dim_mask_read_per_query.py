# expect: loses sdpa -- a 1-D mask (T_k,) is broadcastable to (..., T_q, T_k) and masks keys, but when its length equals T_q it is read as one flag per query (mask[:, None]): q, k (2, 4, 8), mask [T, T, F, F] -> the answer zeroes queries 2 and 3 and lets every query attend keys 2 and 3; any mask of 2 or more dimensions, or a 1-D mask with T_q != T_k, agrees with the key
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
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., T_q, T_k)
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
        return weights @ v, weights
    if mask.dim() == 1 and mask.shape[0] == q.shape[-2]:
        mask = mask[:, None]  # a vector of flags, one per query row
    mask = mask.expand(scores.shape)
    has_key = mask.any(dim=-1, keepdim=True)
    scores = scores.masked_fill(~mask & has_key, float("-inf"))
    weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights
