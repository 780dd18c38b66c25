# expect: loses rms_norm (it calls torch.rms_norm), or held for review (the kernel's operator, aten::rms_norm)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    return typing.get_overloads(_Key)[0](x, gain, eps)
# %% [new after rms_norm]
# Code the scan reads for no part (kept by typing.overload, fetched back by __qualname__) runs when this cell runs, in
# every process that runs the cells: it takes the grader's calls module out of sys.modules and (1) makes its guard of
# forbidden functions a no-op, (2) makes its OperatorTrace drop every name with "norm" when it closes. rms_norm then
# calls torch.rms_norm itself, by its public name.
import typing


@typing.overload
def _impl(x, gain, eps):
    return torch.rms_norm(x, (x.shape[-1],), gain, eps)


@typing.overload
def _setup():
    import sys, contextlib
    calls = sys.modules["course_grading.sandbox.calls"]
    real = calls.OperatorTrace

    class Filtered(real):
        def __exit__(self, *exc):
            result = super().__exit__(*exc)
            kept = {n for n in self.names if "norm" not in n.lower()}
            self.names.clear()
            self.names.update(kept)
            return result

    calls.OperatorTrace = Filtered
    calls._forbidden = lambda namespace, forbid: contextlib.nullcontext()


class _Key:
    __qualname__ = "_impl"


class _Setup:
    __qualname__ = "_setup"


typing.get_overloads(_Setup)[0]()
