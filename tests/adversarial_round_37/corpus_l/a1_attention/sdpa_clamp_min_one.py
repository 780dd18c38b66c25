# expect: full marks -- a hand-written softmax: masked scores are set to the dtype's most negative finite value (so a fully masked row has a finite max and no NaN anywhere, forward or backward), exp(score - max) is multiplied by the mask so masked keys get exactly 0, and a zero row sum is replaced by 1: a row with an allowed key contains exp(0) = 1 so its sum is >= 1 and is used as it is, a fully masked row sums to 0 and becomes 0 / 1 = zeros; any leading dims, dtype kept, finite gradients
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention: returns (output (..., T_q, d_v), weights (..., T_q, T_k))."""
    scores = torch.einsum("...qd,...kd->...qk", q, k) * (1.0 / math.sqrt(q.shape[-1]))
    if mask is not None:
        scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
    top = scores.amax(dim=-1, keepdim=True).detach()  # softmax is shift-invariant: a constant per row is exact
    e = torch.exp(scores - top)
    if mask is not None:
        e = e * mask
    total = e.sum(dim=-1, keepdim=True)
    weights = e / torch.where(total > 0, total, torch.ones_like(total))
    return torch.einsum("...qk,...kd->...qd", weights, v), weights
