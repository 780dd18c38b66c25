# expect: full marks -- lets fully masked rows become NaN in the softmax and patches them to 0 with nan_to_num; unusual but within the spec: the masked_fill that put -inf in the scores zeroes the backward at every masked entry, so the NaN never reaches the gradients of q, k or v (they stay finite), and forward weights/outputs are exact zeros
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention: returns (output (..., T_q, d_v), weights (..., T_q, T_k))."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    # a query whose keys are all masked gives 0/0 = NaN in the softmax: those rows become zeros
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    return weights @ v, weights
