# expect: loses sdpa -- shifts the scores by ONE maximum taken over the whole tensor (every batch element, head and query) before exp, instead of each row's own maximum; softmax is shift-invariant in exact arithmetic, so the visible tests pass, but a row whose scores all lie about 104 below the global maximum underflows to exp = 0 everywhere and gets all-zero weights, so one row's output depends on the other rows of the batch; breaks 'the softmax runs over the keys (each row of A sums to 1)'; input: q = [[30, 0], [0, 0]], k = [[10, 0], [-10, 0]], v = [[1.], [2.]] (float32, no mask) -> row 1's weights are [0, 0] instead of [0.5, 0.5]
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
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    # softmax is shift-invariant: one shift for the whole tensor keeps exp from overflowing
    finite = scores[torch.isfinite(scores)]
    shift = finite.max().detach() if finite.numel() else scores.new_zeros(())
    e = torch.exp(scores - shift)
    total = e.sum(dim=-1, keepdim=True)
    weights = e / total.clamp_min(torch.finfo(e.dtype).tiny)  # a fully masked row: 0 / tiny = 0
    return weights @ v, weights
