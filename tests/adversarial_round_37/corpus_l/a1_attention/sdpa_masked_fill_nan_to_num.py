# expect: full marks -- looks fragile but is right: masked scores are set to -inf with masked_fill, a fully masked row's softmax is NaN and nan_to_num turns it into zeros (weights and output exactly 0); in the backward pass the NaN softmax gradient of such a row reaches only masked positions, where masked_fill's backward replaces it by 0, so the gradients of q, k and v are finite (checked against the key, values and gradients, float32 and float64)
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention: returns (output (..., T_q, d_v), weights (..., T_q, T_k))."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    weights = torch.nan_to_num(weights, nan=0.0)  # a row with every key masked is 0/0: make it zeros
    return weights @ v, weights
