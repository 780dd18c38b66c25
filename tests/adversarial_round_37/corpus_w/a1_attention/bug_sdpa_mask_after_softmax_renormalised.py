# expect: loses sdpa -- "where mask is False the query must give the key weight exactly 0, and the remaining weights of the row still sum to 1": the mask is applied after an unmasked softmax and the row renormalised; when a masked key's score is far above the allowed keys' (thousands of units), the allowed keys' probabilities underflow to 0 and the row comes out all zeros (or denormal garbage) instead of a softmax over the allowed keys
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention: (output (..., T_q, d_v), weights (..., T_q, T_k))."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights * mask.to(weights.dtype)  # drop the masked keys ...
        total = weights.sum(dim=-1, keepdim=True)
        weights = weights / total.clamp_min(torch.finfo(weights.dtype).tiny)  # ... and renormalise the rest
    return weights @ v, weights
