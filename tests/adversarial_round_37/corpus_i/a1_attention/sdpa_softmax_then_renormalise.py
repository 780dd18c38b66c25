# expect: loses sdpa -- softmax over all keys, then zero the masked ones and renormalise: when a masked key's score exceeds the kept ones by >~104 the kept weights underflow and the row is all zeros, e.g. q=[[30,0]], k=[[10,0],[-10,0]], mask=[[False,True]]
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention; masked keys removed after the softmax."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights * mask
        weights = weights / weights.sum(dim=-1, keepdim=True).clamp_min(torch.finfo(weights.dtype).tiny)
    return weights @ v, weights
