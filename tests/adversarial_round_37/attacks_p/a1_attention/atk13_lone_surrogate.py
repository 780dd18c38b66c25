# expect: loses sdpa at most (a cell Python cannot compile is the student's fault), never "not graded" -- the sdpa cell's comment carries a lone surrogate (U+D800), written into the .ipynb by hand as the JSON escape \ud800 in place of SURROGATE_HERE
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention; returns (output, weights)."""
    # SURROGATE_HERE
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., T_q, T_k)
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        has_key = mask.any(dim=-1, keepdim=True)  # (..., T_q, 1): False for fully masked queries
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights
