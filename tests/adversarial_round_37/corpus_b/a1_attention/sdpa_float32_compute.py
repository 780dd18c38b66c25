# expect: loses sdpa -- computes in float32 and returns float32 for float64 (or float16) inputs; spec: "return tensors of the inputs' dtype"
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
    # work in float32 for a numerically safe softmax
    q, k, v = q.float(), k.float(), v.float()
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        has_key = mask.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    else:
        weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
