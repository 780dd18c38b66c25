# expect: loses sdpa -- hand-written softmax exp(s)/sum(exp(s)) without subtracting the row max: NaN once a score exceeds ~88 (float32), e.g. q = k = 10 * ones(1, 4)
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention with a hand-written masked softmax."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    e = torch.exp(scores)
    if mask is not None:
        e = e.masked_fill(~mask, 0.0)
    total = e.sum(dim=-1, keepdim=True)
    weights = e / total.clamp_min(torch.finfo(e.dtype).tiny)  # a fully masked row: 0 / tiny = 0
    return weights @ v, weights
