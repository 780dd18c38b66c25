# expect: loses sdpa  -- masked path builds the weights in a torch.zeros(shape) buffer (float32) and returns them as float32 for float64/float16 inputs; spec: "your function must work for (T, d), (B, T, d) and (B, h, T, d) inputs alike, and return tensors of the inputs' dtype"
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
    shape = torch.broadcast_shapes(scores.shape, mask.shape)
    scores, mask = scores.expand(shape), mask.expand(shape)
    has_key = mask.any(dim=-1)  # (...,T_q): rows with at least one key
    weights = torch.zeros(shape)  # fully masked rows simply stay zero
    weights[has_key] = torch.softmax(scores.masked_fill(~mask, float("-inf"))[has_key], dim=-1).float()
    out = weights.to(v.dtype) @ v  # cast so the matmul accepts v
    return out, weights
