"""The grader's own scan (shortcuts.evidence_by_part) on a7's rms_norm with the rules a7's spec states
(torch's norms forbidden), for several ways to hand a definition to a registry when a cell runs."""
import torch
from course_grading.sandbox.shortcuts import Rules, TORCH_NORMS, STANDARD_IMPORTS, evidence_by_part
rules = {"rms_norm": Rules(forbid=TORCH_NORMS, imports=STANDARD_IMPORTS)}
part = 'def rms_norm(x, gain, eps=1e-6):\n    return _KEEP[0](x, gain, eps)\n'
body = '    d = x.shape[-1]\n    return gain * torch.nn.CrossMapLRN2d(2 * d + 1, alpha=(2 * d + 1) / d, beta=0.5, k=eps)(x.reshape(-1, d, 1, 1)).reshape(x.shape)\n'
variants = {
    "named (control)": "_KEEP = []\ndef _impl(x, gain, eps):\n" + body + "_KEEP.append(_impl)\n",
    "decorator": "_KEEP = []\n@_KEEP.append\ndef _impl(x, gain, eps):\n" + body,
    "class body hands out its method": "_KEEP = []\nclass _Holder:\n    def impl(x, gain, eps):\n" + body.replace("\n    ", "\n        ").replace("    d =", "        d =", 1) + "    _KEEP.append(impl)\n",
    "metaclass __init__": "_KEEP = []\nclass _Meta(type):\n    def __init__(cls, name, bases, ns):\n        _KEEP.append(ns.get('impl'))\nclass _Impl(metaclass=_Meta):\n    def impl(x, gain, eps):\n" + body.replace("\n    ", "\n        ").replace("    d =", "        d =", 1),
}
test = "x = torch.randn(2, 8)\nprint(rms_norm(x, torch.ones(8)))\n"
for name, added in variants.items():
    ns = {"torch": torch}
    exec(added, ns); exec(part, ns)
    x = torch.randn(3, 8, dtype=torch.float64); g = torch.randn(8, dtype=torch.float64)
    err = (ns["rms_norm"](x, g, 1e-6) - g * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)).abs().max().item()
    ev = evidence_by_part({"rms_norm": part, "student-cell-1": added}, rules, ["import torch"], {"rms_norm": test})
    print(f"{name:35s} max err {err:.1e}  scan evidence: {[e.describe()[:90] for e in ev.get('rms_norm', [])]}")
