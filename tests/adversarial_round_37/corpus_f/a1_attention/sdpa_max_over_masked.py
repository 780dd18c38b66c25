# expect: loses sdpa -- the stabilising max is taken over all keys, masked ones included, and the mask is applied after exp: when a masked key scores far above the allowed ones every allowed exp underflows to 0 and the row is all zeros instead of summing to 1; spec: "where mask is False the query must give the key weight exactly 0, and the remaining weights of the row still sum to 1"
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention with an explicit, numerically stable softmax."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    scores = scores - scores.amax(dim=-1, keepdim=True)  # subtract the row max: exp cannot overflow
    e = torch.exp(scores)
    if mask is not None:
        e = e * mask  # masked keys contribute nothing
    total = e.sum(dim=-1, keepdim=True)
    weights = e / total.clamp_min(torch.finfo(e.dtype).tiny)  # a fully masked row stays 0 (no 0/0)
    return weights @ v, weights
