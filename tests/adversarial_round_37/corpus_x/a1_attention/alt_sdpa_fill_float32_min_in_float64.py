# expect: full marks -- a1's spec names no fill and its promises name the magnitudes sent (scores far below -10,000, not below -1e9, where the tutorials' -1e9 fill is right too); float32's least value fills as well as -1e9 there (relabelled from loses sdpa); was: loses sdpa -- "where mask is False the query must give the key weight exactly 0" (float64 inputs allowed: "float32 and float64 inputs ... at its precision"): masked scores are filled with torch.finfo(torch.float32).min (-3.4e38) whatever the dtype; in float32 no finite score lies below it, but float64 scores can (q = 1e20, k = -1e20 gives scores near -1e40), and then the masked keys outrank every real key and take all the weight
# %% [sdpa]
_FILL = torch.finfo(torch.float32).min  # the most negative float: "as good as -inf", and never NaN


def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention; see the part's text."""
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        any_key = mask.any(dim=-1, keepdim=True)
        weights = torch.softmax(scores.masked_fill(~mask, _FILL), dim=-1)
        weights = weights.masked_fill(~any_key, 0.0)
    return torch.matmul(weights, v), weights
