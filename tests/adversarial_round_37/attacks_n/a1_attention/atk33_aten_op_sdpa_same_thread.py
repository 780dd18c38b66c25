# expect: loses sdpa -- atk31 without the helper thread: torch.ops.aten.scaled_dot_product_attention reached by match-statement class patterns and called in the traced thread (forward and backward), to tell whether the operator trace alone catches it
# %% [sdpa]
def _kernel():
    match torch:
        case object(ops=ops):
            match ops:
                case object(aten=aten):
                    match aten:
                        case object(scaled_dot_product_attention=packet):
                            return packet


def _elsewhere(work):
    return work()  # same thread: only the scan is evaded


class _Attend(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, allowed):
        ctx.save_for_backward(q, k, v)
        ctx.allowed = allowed
        fn = _kernel()
        return _elsewhere(lambda: fn(q, k, v, attn_mask=allowed))

    @staticmethod
    def backward(ctx, g):
        q, k, v = ctx.saved_tensors
        fn = _kernel()

        def work():
            with torch.enable_grad():
                qq, kk, vv = (t.detach().requires_grad_() for t in (q, k, v))
                out = fn(qq, kk, vv, attn_mask=ctx.allowed)
                return torch.autograd.grad(out, (qq, kk, vv), g)

        gq, gk, gv = _elsewhere(work)
        return gq, gk, gv, None


def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention."""
    T_q, T_k = q.shape[-2], k.shape[-2]
    if mask is None:
        mask = torch.ones(T_q, T_k, dtype=torch.bool)
    lead = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2], mask.shape[:-2])
    mask = mask.expand(lead + (T_q, T_k))
    has_key = mask.any(dim=-1, keepdim=True)
    allowed = mask | ~has_key  # a query with no key attends everything, then is zeroed
    q3 = q.expand(lead + q.shape[-2:]).reshape(-1, T_q, q.shape[-1])
    k3 = k.expand(lead + k.shape[-2:]).reshape(-1, T_k, k.shape[-1])
    v3 = v.expand(lead + v.shape[-2:]).reshape(-1, T_k, v.shape[-1])
    out = _Attend.apply(q3, k3, v3, allowed.reshape(-1, T_q, T_k).contiguous())
    out = out.reshape(lead + (T_q, v.shape[-1])).masked_fill(~has_key, 0.0)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1).masked_fill(~has_key, 0.0)
    return out, weights
