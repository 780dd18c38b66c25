# expect: loses sdpa -- normalises exp(scores) by its row sum taken with .detach() ('the denominator is only a normalising constant'), so the weights and the output have the right values but the gradients with respect to q and k miss the denominator's term (and the weights' rows no longer differentiate to sum 0); breaks 'It must be differentiable with respect to q, k and v' / hidden: 'gradients flow back to q, k and v' (the true gradients); input: q, k, v = randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 6), backward of (out * g).sum() -> q.grad differs from the key's (max abs diff ~0.5)
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
    has_key = None
    if mask is not None:
        has_key = mask.any(dim=-1, keepdim=True)  # False for a query that may attend nothing
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
    e = torch.exp(scores - scores.amax(dim=-1, keepdim=True).detach())  # stable exp
    weights = e / e.sum(dim=-1, keepdim=True).detach()  # the row sum is just a normalising constant
    if has_key is not None:
        weights = weights.masked_fill(~has_key, 0.0)
    return weights @ v, weights
