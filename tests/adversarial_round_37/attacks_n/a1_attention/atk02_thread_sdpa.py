# expect: loses sdpa -- torch's own F.scaled_dot_product_attention, found by its __name__ (taken from the student's own function) in torch.overrides' public table, run forward and backward in a helper thread (so a thread-local trace records none of its operators) inside a custom autograd.Function
# %% [sdpa]
import threading


def _kernel():
    name = scaled_dot_product_attention.__name__
    for fn in torch.overrides.get_overridable_functions()[torch.nn.functional]:
        if getattr(fn, "__name__", "") == name and fn is not scaled_dot_product_attention:
            return fn


def _elsewhere(work):
    box = []
    t = threading.Thread(target=lambda: box.append(work()))
    t.start()
    t.join()
    return box[0]


class _Attend(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, mask):
        ctx.save_for_backward(q, k, v)
        ctx.mask = mask
        fn = _kernel()
        return _elsewhere(lambda: fn(q, k, v, attn_mask=mask))

    @staticmethod
    def backward(ctx, g):
        q, k, v = ctx.saved_tensors
        fn = _kernel()

        def work():
            with torch.enable_grad():
                qq, kk, vv = (t.detach().requires_grad_() for t in (q, k, v))
                out = fn(qq, kk, vv, attn_mask=ctx.mask)
                return torch.autograd.grad(out, (qq, kk, vv), g)

        gq, gk, gv = _elsewhere(work)
        return gq, gk, gv, None


def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention."""
    if mask is None:
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool)
    shape = torch.broadcast_shapes(mask.shape, q.shape[:-1] + (k.shape[-2],))
    mask = mask.expand(shape)
    has_key = mask.any(dim=-1, keepdim=True)
    full = mask | ~has_key  # a fully masked query attends everything, then is zeroed
    lead = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2], shape[:-2])
    q2 = q.expand(lead + q.shape[-2:])
    k2 = k.expand(lead + k.shape[-2:])
    v2 = v.expand(lead + v.shape[-2:])
    full = full.expand(lead + shape[-2:])
    out = _Attend.apply(q2, k2, v2, full)
    out = out.masked_fill(~has_key, 0.0)
    # the weights, for the caller that wants them (computed plainly)
    scores = q2 @ k2.transpose(-2, -1) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~full, float("-inf"))
    weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return out, weights
