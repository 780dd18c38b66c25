# expect: loses rotary (control for atk06: the same in-place change in hidden calls, calls.plain left alone)
# %% [rotary]
_ORIGINAL = {}
_HIDDEN = []  # non-empty while a hidden call runs (the added cell's code says so)


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
        out = torch.stack([turned_a, turned_b], dim=-1).flatten(-2)  # pairs back side by side
    else:
        out = torch.cat([turned_a, turned_b], dim=-1)
    if _HIDDEN:
        _ORIGINAL[id(x)] = x.detach().clone()
        with torch.no_grad():
            x.zero_()  # the input, changed in place: the caller's tensor is wrong after the call
    return out
# %% [new after rotary]
import typing


@typing.overload
def _setup():
    import sys, contextlib
    calls = sys.modules["course_grading.sandbox.calls"]
    real_threads = calls._threads

    @contextlib.contextmanager
    def threads(*args, **kwargs):  # entered by call_in alone, around the student's function
        with real_threads(*args, **kwargs):
            _HIDDEN.append(1)
            try:
                yield
            finally:
                _HIDDEN.clear()

    calls._threads = threads


class _Setup:
    __qualname__ = "_setup"


typing.get_overloads(_Setup)[0]()
