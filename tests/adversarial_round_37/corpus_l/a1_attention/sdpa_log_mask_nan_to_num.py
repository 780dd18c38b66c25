# expect: loses sdpa -- the mask is added to the scores as log(mask) (0 where allowed, -inf where not) and fully masked rows are repaired after the softmax with nan_to_num: the values are right (zeros), but the addition passes the NaN gradient of such a row straight back to the scores, so q.grad and k.grad come out NaN; breaks "its gradients must stay finite (no NaN) even when a query is fully masked"; input: q, k, v = randn(3, 4) each with requires_grad, mask = ones(3, 3, bool) with mask[1] = False, out.sum().backward() -> q.grad and k.grad contain NaN (spec: finite)
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention: returns (output (..., T_q, d_v), weights (..., T_q, T_k))."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + torch.log(mask.to(scores.dtype))  # log 1 = 0 keeps a key, log 0 = -inf removes it
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)  # fully masked rows: 0/0 -> 0
    return weights @ v, weights
