# expect: full marks -- style: weights as exp(shifted - logsumexp(shifted)) by hand (scores shifted by their detached row maximum), masked keys filled with -inf, a fully masked query's logsumexp (-inf) replaced by 0 with torch.where so that exp(-inf) gives its zeros, einsum for both products
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention.

    Returns:
        (output, weights): output of shape (..., T_q, d_v) and the attention weights of shape
        (..., T_q, T_k). Each row of weights sums to 1, or is all zeros if every key is masked.
    """
    scores = torch.einsum("...qd,...kd->...qk", q, k) * (q.shape[-1] ** -0.5)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    top = scores.amax(dim=-1, keepdim=True).detach()  # the row's maximum, a constant shift
    top = torch.where(torch.isinf(top), torch.zeros_like(top), top)
    shifted = scores - top
    lse = torch.logsumexp(shifted, dim=-1, keepdim=True)
    lse = torch.where(torch.isinf(lse), torch.zeros_like(lse), lse)
    weights = torch.exp(shifted - lse)
    return torch.einsum("...qk,...kd->...qd", weights, v), weights
