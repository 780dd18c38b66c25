# expect: loses sdpa -- a hand-written stable softmax that subtracts the row maximum taken over ALL keys, masked ones included, then multiplies by the mask: when a masked key's score exceeds every allowed key's by more than ~104 (float32) the allowed keys' exponentials underflow to 0 and the row comes out all zeros; breaks 'where mask is False ... the remaining weights of the row still sum to 1'; input: q=[[100.,0.]], k=[[1.,0.],[-1.,0.]], v=[[1.],[2.]], mask=[[False,True]] -> key weights [0,1], out 2; this gives weights [0,0], out 0
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
    e = torch.exp(scores - scores.amax(dim=-1, keepdim=True))  # stable softmax: subtract the row's max
    if mask is not None:
        e = e * mask  # masked keys contribute nothing
    total = e.sum(dim=-1, keepdim=True)
    weights = e / total.clamp_min(1e-30)  # a fully masked row: 0 / tiny = 0, no NaN
    return weights @ v, weights
