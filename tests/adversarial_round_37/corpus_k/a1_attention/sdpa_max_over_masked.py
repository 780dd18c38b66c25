# expect: loses sdpa -- the stabilising max is taken over ALL keys, masked ones included, and masking is a multiply after exp: when a masked key outscores the allowed ones by more than ~104 (float32), every allowed weight underflows to 0 and the row sums to 0, not 1 (e.g. q=[[10,0]], k=[[100,0],[-50,0]], mask=[[False, True]])
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
    scores = scores - scores.amax(dim=-1, keepdim=True)  # the usual shift: exp never overflows
    e = scores.exp()
    if mask is not None:
        e = e * mask  # masked keys contribute nothing; a fully masked row is all zeros
    weights = e / e.sum(dim=-1, keepdim=True).clamp_min(torch.finfo(e.dtype).tiny)
    return weights @ v, weights
