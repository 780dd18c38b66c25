"""In-process: the grader's own shortcuts.evidence_by_part on ways to keep code unreached (rules as a7 states them)."""
from course_grading.sandbox import shortcuts as s
R = {"rms_norm": s.Rules(forbid=s.TORCH_NORMS), "apply_rotary": s.Rules(forbid=())}
part = "def rms_norm(x, gain, eps=1e-6):\n    return _run(x, gain, eps)\n"
cases = {
"control: named": """
import torch
def _run(x, g, e):
    return torch.rms_norm(x, (x.shape[-1],), g, e)
""",
"attacks_v's F: @_KEEP.append (closed?)": """
import torch
_KEEP = []
@_KEEP.append
def _unseen(x, g, e):
    return torch.rms_norm(x, (x.shape[-1],), g, e)
def _run(x, g, e):
    return _KEEP[0](x, g, e)
""",
"attacks_v's G: class body hands out its method (closed?)": """
import torch
_KEEP = []
class _Holder:
    def impl(x, g, e):
        return torch.rms_norm(x, (x.shape[-1],), g, e)
    _KEEP.append(impl)
def _run(x, g, e):
    return _KEEP[0](x, g, e)
""",
"typing.overload + get_overloads": """
import torch, typing
@typing.overload
def _unseen(x, g, e):
    return torch.rms_norm(x, (x.shape[-1],), g, e)
class _Probe:
    __qualname__ = "_unseen"
def _run(x, g, e):
    return typing.get_overloads(_Probe)[0](x, g, e)
""",
"overload, run at TOP (anything: sys.modules)": """
import torch, typing
@typing.overload
def _unseen():
    m = __import__("sys").modules["course_grading.sandbox.calls"]
    m.global_random_state = lambda: (b"", 0, b"")
class _Probe:
    __qualname__ = "_unseen"
typing.get_overloads(_Probe)[0]()
def _run(x, g, e):
    return x
""",
"warnings.filters.append": """
import torch, warnings
@warnings.filters.append
def _unseen(x, g, e):
    return torch.rms_norm(x, (x.shape[-1],), g, e)
_K = [warnings.filters.pop()]
def _run(x, g, e):
    return _K[0](x, g, e)
""",
"other part's body appends (forbid-nothing region)": """
import torch
_K = []
def apply_rotary(x):
    _K.append(torch.rms_norm)
    return x
def _run(x, g, e):
    return _K[0](x, (x.shape[-1],), g, e)
""",
"getattr in forbid-nothing part": """
import torch
def apply_rotary(x):
    calls = getattr(getattr(torch, "sys"), "modules")["course_grading.sandbox.calls"]
    setattr(calls, "global_random_state", lambda: 0)
    return x
def _run(x, g, e):
    return x
""",
}
for name, helper in cases.items():
    ev = s.evidence_by_part({"rms_norm": part, "apply_rotary": "", "student-cell-1": helper}, R,
                            tests={"rms_norm": "rms_norm(1,2)", "apply_rotary": "apply_rotary(1)"})
    print(f"{name}:")
    for p in R:
        print(f"   {p}: {[e.describe() for e in ev.get(p, [])][:3]}")
