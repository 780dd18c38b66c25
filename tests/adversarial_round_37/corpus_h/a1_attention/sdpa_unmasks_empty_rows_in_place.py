# expect: loses sdpa -- to avoid NaN it opens the fully masked rows of the caller's mask in place (mask |= empty) before zeroing their weights: outputs and weights equal the key's, but the caller's mask is changed ("it must not modify its inputs"), e.g. the visible mask with row 2 all False is all True in row 2 after the call; and any mask passed as an expanded view, e.g. causal_mask(3).expand(2, 3, 3), raises "unsupported operation: more than one element of the written-to tensor refers to a single memory location", fully masked rows or not
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
        return weights @ v, weights
    empty = ~mask.any(dim=-1, keepdim=True)  # queries that may attend nothing
    mask |= empty  # let them see every key for now: no row of -inf, no NaN (their weights are zeroed below)
    weights = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1).masked_fill(empty, 0.0)
    return weights @ v, weights
