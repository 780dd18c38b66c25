# expect: full marks -- first derivatives right; the spec asks for gradients, and its promises now say first derivatives only (relabelled from loses sdpa); was: loses sdpa -- "It must be differentiable with respect to q, k and v (build it from torch operations)": the softmax is a custom autograd.Function whose hand-written backward is right to first order but reads the forward's output as a constant (kept on ctx, detached), so a second derivative (double backward for a gradient penalty, torch.autograd.functional.hessian) silently drops every term through the weights' dependence on the scores: with respect to q alone the gradient has no graph at all (its own gradient is 0 or an error where the key's is not); the values and every first-order gradient match the key
# %% [sdpa]
class _RowSoftmax(torch.autograd.Function):
    """softmax over the last axis with the textbook Jacobian-vector product as its backward."""

    @staticmethod
    def forward(ctx, scores):
        y = torch.softmax(scores, dim=-1)
        ctx.y = y.detach()  # the backward only needs the output
        return y

    @staticmethod
    def backward(ctx, grad):
        y = ctx.y
        return y * (grad - (grad * y).sum(dim=-1, keepdim=True))


def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention; see the part's text."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is None:
        weights = _RowSoftmax.apply(scores)
    else:
        has_key = mask.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = _RowSoftmax.apply(scores).masked_fill(~has_key, 0.0)
    return weights @ v, weights
