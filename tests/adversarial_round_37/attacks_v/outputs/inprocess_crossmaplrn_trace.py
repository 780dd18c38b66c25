import torch
from course_grading.sandbox.calls import call_in
from course_grading.sandbox.shortcuts import Rules, TORCH_NORMS, traced
_LRN = [torch.nn.CrossMapLRN2d]
def rms_norm(x, gain, eps=1e-6):
    d = x.shape[-1]
    return gain * _LRN[0](2 * d + 1, alpha=(2 * d + 1) / d, beta=0.5, k=eps)(x.reshape(-1, d, 1, 1)).reshape(x.shape)
ns = {"rms_norm": rms_norm, "_LRN": _LRN, "torch": torch}
x = torch.randn(3, 8, dtype=torch.float64); g = torch.randn(8, dtype=torch.float64)
r = call_in(ns, "rms_norm", (x, g), grad_args=[0, 1], forbid=list(TORCH_NORMS))
ref = g * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
print("max err", (r.value - ref).abs().max().item())
print("names", sorted(r.operators))
rules = Rules(forbid=TORCH_NORMS)
print("pattern", rules.operators().pattern[:300])
print("traced evidence", traced({"rms_norm": rules}, {"rms_norm": set(r.operators)}, set()))
