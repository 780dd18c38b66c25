# expect: loses sdpa -- scales the keys in place through a transposed view (k.transpose(...).div_), which rewrites the caller's k; spec: "it must not modify its inputs"
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention, scaling the (transposed) keys once instead of the scores."""
    kt = k.transpose(-2, -1)
    if not kt.requires_grad:
        kt.div_(math.sqrt(q.shape[-1]))  # saves a (T_q, T_k) division
    else:
        kt = kt / math.sqrt(q.shape[-1])
    scores = q @ kt
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        has_key = mask.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights
