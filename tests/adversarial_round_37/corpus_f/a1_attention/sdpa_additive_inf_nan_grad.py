# expect: loses sdpa -- adds a -inf bias instead of filling the scores, then patches the NaN rows of fully masked queries after the softmax: the forward is zeros, but the addition passes the softmax's NaN backward straight into q and k; spec: "its gradients must stay finite (no NaN) even when a query is fully masked"
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention: returns (output (..., T_q, d_v), weights (..., T_q, T_k))."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        bias = torch.zeros(mask.shape, dtype=scores.dtype).masked_fill(~mask, float("-inf"))
        scores = scores + bias  # additive mask, as in the original transformer code
    weights = torch.softmax(scores, dim=-1)
    weights = weights.masked_fill(torch.isnan(weights), 0.0)  # a query with no key: 0/0 -> 0
    return weights @ v, weights
