# expect: loses sdpa -- a hand-written softmax exp(s) / sum(exp(s)) without subtracting the row maximum: any score above ~88.7 (float32) overflows to inf and the row's weights become NaN; spec: "A = softmax(Q K^T / sqrt(d_k)) ... (each row of A sums to 1)" and "Each row of weights sums to 1, or is all zeros if every key is masked"
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
    e = torch.exp(scores)  # my own softmax, so the mask is a plain product
    if mask is not None:
        e = e * mask
    total = e.sum(dim=-1, keepdim=True)
    weights = e / torch.where(total > 0, total, torch.ones_like(total))  # a fully masked row stays 0
    return weights @ v, weights
