# expect: loses rotary -- keeps the cos/sin tables in a functools.lru_cache keyed by (T, d_head, start, base, dtype, interleaved); the key is complete, but a table first built while the caller is in torch.inference_mode() is an inference tensor, and a later call with gradients (same arguments) multiplies x by it, which autograd must save for backward: "RuntimeError: Inference tensors cannot be saved for backward". Breaks "its values are the same whether or not the caller asks for gradients (under torch.no_grad() or torch.inference_mode() too)" and "gradients flow back to x"; input: x = randn(2, 5, 8); apply_rotary(x) inside torch.inference_mode(), then apply_rotary(x.clone().requires_grad_()) -> key returns a tensor with grad_fn, this answer raises RuntimeError
# %% [rotary]
import functools


@functools.lru_cache(maxsize=64)
def _rotary_table(T, d_head, start, base, dtype):
    pair = torch.arange(d_head // 2, dtype=torch.float64)
    theta = 1.0 / base ** (2 * pair / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta[None, :]
    return angles.cos().to(dtype), angles.sin().to(dtype)


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    """x (..., T, d_head) rotated as positions start .. start + T - 1; same shape and dtype."""
    T, d_head = x.shape[-2], x.shape[-1]
    cos, sin = _rotary_table(T, d_head, int(start), float(base), x.dtype)  # cached: decoding asks for the same rows again and again
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d_head // 2], x[..., d_head // 2 :]
    ra, rb = a * cos - b * sin, a * sin + b * cos
    if interleaved:
        return torch.stack([ra, rb], dim=-1).flatten(-2)
    return torch.cat([ra, rb], dim=-1)
