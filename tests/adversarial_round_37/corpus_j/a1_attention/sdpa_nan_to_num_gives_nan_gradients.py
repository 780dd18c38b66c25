# expect: loses sdpa -- the mask becomes an additive bias of 0/-inf and a fully masked row's NaN softmax is cleaned with nan_to_num: forward gives 0, but the NaN reaches q and k through the addition in backward; q,k,v=randn(1,2,2,4) requires_grad, mask=[[True,True],[False,False]], out.sum().backward() -> q.grad has NaN
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
    d_k = q.shape[-1]
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        # turn the boolean mask into an additive one: 0 where allowed, -inf where not
        bias = torch.zeros(mask.shape, dtype=scores.dtype).masked_fill(~mask, float("-inf"))
        scores = scores + bias
    weights = torch.softmax(scores, dim=-1)
    # a query with no key at all gets softmax(-inf, ..., -inf) = NaN: turn it into zeros
    weights = torch.nan_to_num(weights, nan=0.0)
    return torch.matmul(weights, v), weights
