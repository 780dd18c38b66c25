# expect: loses sdpa -- gives every 3-D mask a head axis when q is 4-D (multi_head_attention's convention carried into part 1), where "a boolean mask of shape broadcastable to (..., T_q, T_k)" broadcasts from the right: a per-head mask (h, T_q, T_k) is read per batch row; q, k, v randn (2, 2, 4, 8), (2, 2, 5, 8), (2, 2, 5, 3) (B = h = 2), mask rand(2, 4, 5) > 0.4 with key 0 kept: key gives masked keys weight 0, this answer puts up to 0.62 on them, outputs differ by 1.16 (max abs); with B = 3 the key runs and this answer raises; 2-D and 4-D masks equal
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
        return torch.softmax(scores, dim=-1) @ v, torch.softmax(scores, dim=-1)
    if mask.dim() == 3 and scores.dim() == 4:
        mask = mask.unsqueeze(1)  # a (B, T_q, T_k) mask is the same for every head: (B, 1, T_q, T_k)
    has_key = mask.any(dim=-1, keepdim=True)  # False for a query that may attend nothing
    scores = scores.masked_fill(~mask & has_key, float("-inf"))
    weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights
