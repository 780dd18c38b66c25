# expect: loses sdpa -- custom autograd softmax drops the "- sum(g*y)" term of its backward: forward exact, but d/dq and d/dk are wrong on any input (e.g. loss = out.sum() with random q, k, v)
# %% [sdpa]
class _MaskedSoftmax(torch.autograd.Function):
    """Softmax over the last axis with masked keys at weight 0 and fully masked rows at 0 (no NaN)."""

    @staticmethod
    def forward(ctx, scores, keep):
        has_key = keep.any(dim=-1, keepdim=True)
        shifted = scores.masked_fill(~keep, float("-inf"))
        shifted = shifted - shifted.amax(dim=-1, keepdim=True).masked_fill(~has_key, 0.0)
        e = shifted.exp().masked_fill(~keep, 0.0)
        y = e / e.sum(dim=-1, keepdim=True).clamp_min(torch.finfo(e.dtype).tiny)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return y * grad, None  # elementwise: exp' = exp, normalisation treated as a constant


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
    keep = torch.ones_like(scores, dtype=torch.bool) if mask is None else mask.expand_as(scores)
    weights = _MaskedSoftmax.apply(scores, keep)
    return weights @ v, weights
