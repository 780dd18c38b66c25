# expect: loses sdpa -- torch's own F.scaled_dot_product_attention and threading.Thread come out of a checkpoint (torch.load, weights_only=False) whose pickle names them, stored XOR-ed in a hex string; the kernel runs forward and backward in a helper thread inside a custom autograd.Function, so neither the source nor a thread-local trace names it
# %% [sdpa]
_CKPT = (
    "0a11595e5a5a52525a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a4a5a485a3b283932332c3f753e3b2e3b742a31361c18"
    "545a0000000000000000000000000000da58392e35283932743434743c2f34392e3335343b365029393b363f3e053e35"
    "2e052a28353e2f392e053b2e2e3f342e33353450392e32283f3b3e33343d500e32283f3b3e50dc2b5a740a115d528b9a"
    "2cba105a5a5a105a5a5a0a11595e5a5a52525a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a4d5a6b5a3b283932332c3f75"
    "743c3528373b2e052c3f28293335341c18775a0000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000006b0a115d52edb586d95b5a5a5a5b5a5a5a0a11595e5a5a52525a5a5a5a5a5a5a"
    "5a5a5a5a5a5a5a5a5a5a5a405a6d5a3b283932332c3f7574292e35283b3d3f053b36333d34373f342e1c18695a000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "6c6e0a115d52652d2bb3585a5a5a585a5a5a0a11595e5a5a52525a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a4b5a655a"
    "3b283932332c3f7538232e3f35283e3f281c18615a000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000036332e2e363f0a115d52df67b9435c5a"
    "5a5a5c5a5a5a0a11595e5a5a52525a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a555a675a3b283932332c3f752c3f2829"
    "3335341c18635a0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000069500a115d528bc43d0f585a5a5a585a5a5a0a11595e5a5a52525a5a5a5a5a5a"
    "5a5a5a5a5a5a5a5a5a5a5a5a445a685a3b283932332c3f75743e3b2e3b75293f28333b3633203b2e33353405333e1c18"
    "745a00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "6a68636a626e6c626c6d6d6d6c686368696b6a6e6a6a6b6b6a696a6c6e626b6a6d6b6b6e6d6d6d6f0a115d52ddc92493"
    "725a5a5a725a5a5a0a115b585a5a5a5a52525a5a5a5a5a5a8b9a2cba105a5a5a105a5a5a4a5a5a5a5a5a5a5a5a5a5a5a"
    "5a5a5a5a5a5a3b283932332c3f753e3b2e3b742a31360a115b585a5a5a5a52525a5a5a5a5a5aedb586d95b5a5a5a5b5a"
    "5a5a4d5a5a5a5a5a5a5a5a5a5a5a5a5ac05a5a5a3b283932332c3f75743c3528373b2e052c3f28293335340a115b585a"
    "5a5a5a52525a5a5a5a5a5a652d2bb3585a5a5a585a5a5a405a5a5a5a5a5a5a5a5a5a5a5a5a4b5b5a5a3b283932332c3f"
    "7574292e35283b3d3f053b36333d34373f342e0a115b585a5a5a5a52525a5a5a5a5a5adf67b9435c5a5a5a5c5a5a5a4b"
    "5a5a5a5a5a5a5a5a5a5a5a5a5ac85b5a5a3b283932332c3f7538232e3f35283e3f280a115b585a5a5a5a52525a5a5a5a"
    "5a5a8bc43d0f585a5a5a585a5a5a555a5a5a5a5a5a5a5a5a5a5a5a5a4c585a5a3b283932332c3f752c3f28293335340a"
    "115b585a5a5a5a52525a5a5a5a5a5addc92493725a5a5a725a5a5a445a5a5a5a5a5a5a5a5a5a5a5a5ac8585a5a3b2839"
    "32332c3f75743e3b2e3b75293f28333b3633203b2e33353405333e0a115c5c765a5a5a5a5a5a5a4459775a5a5a5a5a5a"
    "5a5a5a5c5a5a5a5a5a5a5a5c5a5a5a5a5a5a5ac95b5a5a5a5a5a5a62595a5a5a5a5a5a0a115c5d5a5a5a5a915e5a5a5a"
    "5a5a5a5b5a5a5a0a115f5c5a5a5a5a5c5a5c5ac95b5a5a62595a5a5a5a"
)


def _tools():
    path = "/tmp/model_ckpt.pt"
    with open(path, "wb") as f:
        f.write(bytes(b ^ 0x5A for b in bytes.fromhex(_CKPT)))
    return torch.load(path, weights_only=False)


_kernel, _Worker = _tools()


def _elsewhere(work):
    box = []
    t = _Worker(target=lambda: box.append(work()))
    t.start()
    t.join()
    return box[0]


class _Attend(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, mask):
        ctx.save_for_backward(q, k, v)
        ctx.mask = mask
        return _elsewhere(lambda: _kernel(q, k, v, attn_mask=mask))

    @staticmethod
    def backward(ctx, g):
        q, k, v = ctx.saved_tensors

        def work():
            with torch.enable_grad():
                qq, kk, vv = (t.detach().requires_grad_() for t in (q, k, v))
                out = _kernel(qq, kk, vv, attn_mask=ctx.mask)
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
    out = _Attend.apply(q2, k2, v2, full).masked_fill(~has_key, 0.0)
    scores = q2 @ k2.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores.masked_fill(~full, float("-inf")), dim=-1).masked_fill(~has_key, 0.0)
    return out, weights
