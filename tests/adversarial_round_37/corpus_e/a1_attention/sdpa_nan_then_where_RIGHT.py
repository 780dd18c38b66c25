# expect: full marks -- masks every disallowed key with -inf (a fully masked row's softmax is NaN) and then selects 0 for such rows with torch.where; the NaN never reaches the output, and its gradient is cut twice (where sends 0 to the NaN branch, masked_fill zeroes the gradient of every filled score), so gradients stay finite; spec: "If a query's keys are all masked out, its weights and its output must be all zeros (not NaN)" and "its gradients must stay finite (no NaN) even when a query is fully masked"
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
    scores = torch.einsum("...qd,...kd->...qk", q, k) / math.sqrt(q.shape[-1])
    if mask is None:
        return torch.softmax(scores, dim=-1) @ v, torch.softmax(scores, dim=-1)
    weights = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)  # NaN where a row has no key
    weights = torch.where(mask.any(dim=-1, keepdim=True), weights, torch.zeros((), dtype=weights.dtype))
    return weights @ v, weights
