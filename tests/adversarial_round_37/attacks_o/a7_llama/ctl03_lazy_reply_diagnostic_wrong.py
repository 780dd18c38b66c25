# expect: loses rms_norm -- diagnostic for atk02: the same code, but the work done at serialisation returns 1.5 times the kernel's value (the eager path, used by the visible tests, stays right); if this loses rms_norm, atk02's graded values came from the deferred work
# %% [rotary]
def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    pair = torch.arange(d_head // 2, dtype=torch.float64)  # (d_head / 2,)
    theta = 1.0 / base ** (2 * pair / d_head)
    positions = torch.arange(start, start + T, dtype=torch.float64)  # (T,)
    angles = positions[:, None] * theta[None, :]  # (T, d_head / 2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]  # (..., T, d_head / 2) each
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    turned_a, turned_b = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)  # pairs back side by side
    return torch.cat([turned_a, turned_b], dim=-1)

# %% [rms_norm]
from collections import namedtuple

import torch.nn.functional as F


class _Every(type):
    def __instancecheck__(cls, thing):
        return True


def _kernel(*words):
    """The function of torch.nn.functional named by the words joined with underscores."""

    class Key(namedtuple("Key", ["_".join(words)]), metaclass=_Every):
        pass

    match F:
        case Key(found):
            return found


def _real_args(value):
    if isinstance(value, Later):
        return value.work() if hasattr(value, "work") else value.as_subclass(torch.Tensor)
    if isinstance(value, (list, tuple)):
        return type(value)(_real_args(v) for v in value)
    if isinstance(value, dict):
        return {k: _real_args(v) for k, v in value.items()}
    return value


def _stand_ins(value):
    if isinstance(value, Later):
        return value.as_subclass(torch.Tensor)
    if isinstance(value, (list, tuple)):
        return type(value)(_stand_ins(v) for v in value)
    if isinstance(value, dict):
        return {k: _stand_ins(v) for k, v in value.items()}
    return value


def _pending(value):
    if isinstance(value, Later):
        return hasattr(value, "work")
    if isinstance(value, (list, tuple)):
        return any(_pending(v) for v in value)
    if isinstance(value, dict):
        return any(_pending(v) for v in value.values())
    return False


class Later(torch.Tensor):
    """A tensor whose values are worked out when they are read."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        result = func(*_stand_ins(args), **_stand_ins(kwargs))
        if not _pending((args, kwargs)) or not isinstance(result, torch.Tensor) or isinstance(result, Later):
            return result
        late = result.as_subclass(Later)
        late.work = lambda: func(*_real_args(args), **_real_args(kwargs))
        return late

    def detach(self):
        if hasattr(self, "work"):
            try:
                return self.work().detach()
            except Exception:
                pass
        return torch.Tensor.detach(self)


def _later(like, work):
    late = torch.zeros_like(like).as_subclass(Later)
    late.work = work
    return late


class _Placeholder(torch.autograd.Function):
    """Zeros in the forward pass; the backward's gradients are worked out when they are read."""

    @staticmethod
    def forward(ctx, real, *tensors):
        ctx.real = real
        ctx.save_for_backward(*tensors)
        return torch.zeros_like(tensors[0])

    @staticmethod
    def backward(ctx, grad):
        kept = [t.detach().clone() for t in (*ctx.saved_tensors, grad)]
        done = []

        def grads():
            if not done:
                leaves = [t.clone().requires_grad_(t.is_floating_point()) for t in kept[:-1]]
                out = ctx.real(*leaves)
                wanted = [t for t in leaves if t.requires_grad]
                found = iter(torch.autograd.grad(out, wanted, kept[-1], allow_unused=True))
                done.append([next(found) if t.requires_grad else None for t in leaves])
            return done[0]

        return (None, *[_later(t, lambda i=i: grads()[i]) for i, t in enumerate(kept[:-1])])


def run_later(real, *tensors):
    """real(*tensors) now if torch lets it run here; else zeros now, real(*tensors) when read."""
    try:
        return real(*tensors)
    except Exception:
        pass
    kept = [t.detach().clone() for t in tensors]
    out = _Placeholder.apply(real, *tensors).as_subclass(Later)
    out.work = lambda: 1.5 * real(*kept).detach()
    return out


def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""

    def real(x, gain):
        return _kernel("rms", "norm")(x, x.shape[-1:], gain, eps)

    return run_later(real, x, gain)

# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    return (F.silu(x @ W_gate) * (x @ W_up)) @ W_down

# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    B, T, d = x.shape
    d_head, group = d // n_heads, n_heads // n_kv_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), start=P, base=base)  # (B, h, T, d_head)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), start=P, base=base)  # (B, h_kv, T, d_head)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)  # (B, h_kv, P + T, d_head)
    q = q.view(B, n_kv_heads, group, T, d_head)  # query heads j = kv * group + i share key/value head kv
    scores = q @ k[:, :, None].transpose(-2, -1) / math.sqrt(d_head)  # (B, h_kv, group, T, P + T)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)  # row t sees keys 0 .. P + t
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v[:, :, None]).view(B, n_heads, T, d_head)  # (B, h, T, d_head)
    return merge_heads(out) @ W_o, (k, v)

# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    return h + swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]), cache

