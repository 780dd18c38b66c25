# expect: loses sdpa -- takes the softmax in float32 and casts the weights back (torch.softmax(scores, -1, dtype=torch.float32).to(q.dtype), the mixed-precision habit of Hugging Face's attention code); float32 inputs are unchanged, but float64 inputs get weights rounded to float32 (about 1e-8 relative). Breaks "float32 and float64 inputs, floating outputs in the inputs' dtype and at its precision"; input: float64 q, k, v = randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 6) (seed 0), no mask -> key vs this answer: weights max abs diff 3.4e-8, outputs 7.9e-8 (key vs a float64 softmax: 0; float32 inputs: equal)
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
        has_key = mask.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
    weights = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)  # softmax in float32 for stability
    if mask is not None:
        weights = weights.masked_fill(~has_key, 0.0)
    return weights @ v, weights
