# expect: loses sdpa -- adds a -inf bias for masked keys and zeroes the NaN rows after the softmax: outputs are 0 but the gradients of q and k are NaN for a fully masked query; spec: "its gradients must stay finite (no NaN) even when a query is fully masked"
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
    if mask is not None:
        # additive mask, as Hugging Face models build it: 0 where allowed, -inf where masked
        bias = torch.zeros(mask.shape, dtype=scores.dtype, device=scores.device).masked_fill(~mask, float("-inf"))
        scores = scores + bias
    weights = torch.softmax(scores, dim=-1)
    # a fully masked row is NaN after the softmax: replace it by zeros
    weights = torch.where(torch.isnan(weights), torch.zeros_like(weights), weights)
    return weights @ v, weights
