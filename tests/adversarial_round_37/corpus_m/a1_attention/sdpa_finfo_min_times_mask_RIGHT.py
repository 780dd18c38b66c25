# expect: full marks -- fills masked scores with finfo(dtype).min (exp underflows to exactly 0 whenever a row has a real key), then multiplies the weights by the mask: a fully masked row's uniform weights become exact zeros; values, dtypes and gradients equal the key's (the softmax sees the same max and the same exponentials)
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
        scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)  # a finite fill: never NaN
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights * mask  # exact zeros at masked keys; a fully masked row (uniform) becomes all zeros
    return weights @ v, weights
