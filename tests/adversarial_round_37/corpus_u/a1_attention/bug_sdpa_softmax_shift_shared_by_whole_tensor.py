# expect: loses sdpa (the softmax's shift is the largest score of the whole tensor, not of each row, so a row whose scores lie far below another row's underflows: q (2, 1, 4) randn with row 1 times 100, k (2, 3, 4), v (2, 3, 5) randn: the answer's row-0 weights sum to 0.0007 (the key's to 1) and the outputs differ by 1.3; rows of similar scale agree to 2e-7)
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
    shift = scores.detach().amax()  # softmax does not change under a shift: one constant for the whole tensor
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    e = torch.exp(scores - shift)  # masked keys: exp(-inf) = 0
    total = e.sum(dim=-1, keepdim=True)
    weights = e / total.clamp_min(torch.finfo(e.dtype).tiny)  # a fully masked query: 0 / tiny = 0
    return weights @ v, weights
