"""The trace of F.local_response_norm (LayerNorm of the centred input, attacks_n's formula) and of an nn.CrossMapLRN2d
(RMSNorm), judged with the families of TORCH_NORMS: does any name match?"""
import torch, torch.nn.functional as F
from course_grading.sandbox.trace import OperatorTrace
from course_grading.sandbox.shortcuts import Rules, TORCH_NORMS, traced
d = 8
x = torch.randn(2, 3, d, dtype=torch.float64)
print("families:", Rules(forbid=TORCH_NORMS).operators().pattern)
with OperatorTrace() as t:
    y = F.local_response_norm((x - x.mean(-1, keepdim=True)).reshape(-1, d, 1), size=2 * d - 1, alpha=(2 * d - 1) / d, beta=0.5, k=1e-5).reshape(x.shape)
print("F.local_response_norm names:", sorted(t.names))
print("  matched:", traced({"p": Rules(forbid=TORCH_NORMS)}, {"p": set(t.names)}, []), " LN error:", (y - F.layer_norm(x, (d,), eps=1e-5)).abs().max().item())
m = torch.nn.CrossMapLRN2d(2 * d + 1, alpha=(2 * d + 1) / d, beta=0.5, k=1e-6)
with OperatorTrace() as t:
    z = m(x.reshape(-1, d, 1, 1)).reshape(x.shape)
print("nn.CrossMapLRN2d names:", sorted(t.names))
print("  matched:", traced({"p": Rules(forbid=TORCH_NORMS)}, {"p": set(t.names)}, []), " RMSNorm error:", (z - x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)).abs().max().item())
