# expect: loses sdpa -- returns the attention weights detached ("they are only for plotting"): the output is right and differentiable, but the returned weights carry no gradient to q and k, so a loss on the weights (an attention-supervision or entropy term) cannot be back-propagated; spec: "It must be differentiable with respect to `q`, `k` and `v` (build it from torch operations)" for the function that returns "(output, weights)"
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
    else:
        has_key = mask.any(dim=-1, keepdim=True)  # (..., T_q, 1): False for fully masked queries
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights.detach()  # the weights are returned for inspection only
