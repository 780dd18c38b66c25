# expect: loses sdpa -- fully masked rows are repaired after the softmax with nan_to_num: the values are right (zeros), but the backward pass goes through the NaN softmax row and the gradients of q and k come out NaN; breaks "its gradients must stay finite (no NaN) even when a query is fully masked"; input: q, k, v = randn(3, 4) each with requires_grad, mask = ones(3, 3, bool) with mask[1] = False, out.sum().backward() -> q.grad and k.grad contain NaN (spec: finite)
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention: returns (output (..., T_q, d_v), weights (..., T_q, T_k))."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    weights = torch.nan_to_num(weights, nan=0.0)  # a row with every key masked is 0/0: make it zeros
    return weights @ v, weights
