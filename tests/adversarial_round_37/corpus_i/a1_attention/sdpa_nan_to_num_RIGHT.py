# expect: full marks -- masked_fill(-inf) then softmax(...).nan_to_num(0): fully masked rows become zeros, and masked_fill's backward zeroes the NaN gradient of those rows
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention."""
    scores = torch.matmul(q, k.transpose(-1, -2)) * q.shape[-1] ** -0.5
    if mask is not None:
        scores = scores.masked_fill(mask.logical_not(), float("-inf"))
    weights = scores.softmax(-1).nan_to_num(nan=0.0)
    return torch.matmul(weights, v), weights
