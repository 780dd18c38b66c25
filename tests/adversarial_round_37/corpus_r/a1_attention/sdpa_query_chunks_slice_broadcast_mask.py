# expect: loses sdpa -- queries in blocks of 2,048 and the mask sliced along its query axis for each block even when that axis has size 1 (broadcast), so past the first block a (..., 1, T_k) mask becomes empty; "mask: optional boolean tensor broadcastable to (..., T_q, T_k)" with "no fixed limit on its length"; q randn(2, 3000, 8), k randn(2, 50, 8), v randn(2, 50, 4), mask rand(2, 1, 50) > 0.3: key returns (2, 3000, 4), this answer raises RuntimeError (size 0 against 952); T_q = 2000, or masks None / (T_q, T_k) / (T_k,) at 3000: equal
# %% [sdpa]
_QUERY_CHUNK = 2048  # queries per block: the (..., chunk, T_k) scores of one block at a time


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
    outs, all_weights = [], []
    for i in range(0, q.shape[-2], _QUERY_CHUNK):
        q_block = q[..., i : i + _QUERY_CHUNK, :]
        scores = q_block @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., block, T_k)
        if mask is None:
            weights = torch.softmax(scores, dim=-1)
        else:
            m = mask[..., i : i + _QUERY_CHUNK, :] if mask.dim() >= 2 else mask  # this block's queries
            has_key = m.any(dim=-1, keepdim=True)
            weights = torch.softmax(scores.masked_fill(~m & has_key, float("-inf")), dim=-1).masked_fill(~has_key, 0.0)
        outs.append(weights @ v)
        all_weights.append(weights)
    return torch.cat(outs, dim=-2), torch.cat(all_weights, dim=-2)
