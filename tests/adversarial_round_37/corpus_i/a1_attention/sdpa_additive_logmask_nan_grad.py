# expect: loses sdpa -- additive log(mask) plus nan_to_num: forward is right, but q.grad/k.grad are NaN when a query is fully masked (mask row all False, backward of out.sum())
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        # log(1) = 0 keeps a key, log(0) = -inf removes it
        scores = scores + torch.log(mask.to(scores.dtype))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)  # a fully masked row is NaN: make it 0
    return weights @ v, weights
