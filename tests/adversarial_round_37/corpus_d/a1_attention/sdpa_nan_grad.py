# expect: full marks -- relabelled after grading (its writer's check): nan_to_num after a softmax over an all -inf row; written as a wrong answer expecting NaN gradients, but masked_fill's backward zeroes that row, so q, k and v get finite gradients and the answer meets the spec
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention; fully masked rows cleaned up after the softmax."""
    scores = torch.einsum("...qd,...kd->...qk", q, k) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    return torch.einsum("...qk,...kd->...qd", weights, v), weights
