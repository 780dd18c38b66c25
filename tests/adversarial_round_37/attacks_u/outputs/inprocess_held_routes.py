"""In-process matrix: routes to torch's kernels that keep torch's modes on; each is run as the grader runs a hidden
call (calls.call_in: the guard of the part's forbidden functions, the operator trace) and judged by shortcuts.traced
and shortcuts.evidence_by_part with the a7/a1 families. Not a grading run: a cheap check of what the trace sees."""
import math, torch, torch.nn.functional as F
from course_grading.sandbox.calls import call_in
from course_grading.sandbox.shortcuts import evidence_by_part, Rules, TORCH_NORMS, TORCH_ATTENTION, traced
FIND = '''
def _table(self):
    return self.overrides


def _find(want):
    box = []
    for fs in _table(torch).get_overridable_functions().values():
        for f in fs:
            if f.__name__ == want and not box and type(f).__name__ == "builtin_function_or_method":
                box.append(f)
    return box
'''
CASES = {
 "h1 torch.ops.aten packet via self.ops, runtime name": ("rms_norm", FIND + '''
def _ops(self):
    return self.ops
def _aten(self):
    return self.aten
_P = [p for p in [_aten(_ops(torch))] ]
_K = []
for _name in ["".join(["rms", "_norm"])]:
    for _f in _find(_name):
        _K.append(_f)
def rms_norm(x, gain, eps=1e-6):
    return _K[0](x, x.shape[-1:], gain, eps)
'''),
 "h2 torch.func.vmap over the captured kernel": ("rms_norm", FIND + '''
_K = _find("rms_norm")
def rms_norm(x, gain, eps=1e-6):
    f = lambda row: _K[0](row, row.shape[-1:], gain, eps)
    return torch.func.vmap(f)(x.reshape(-1, x.shape[-1])).reshape(x.shape)
'''),
 "h3 an nn.Module forward hook runs the kernel": ("rms_norm", FIND + '''
_K = _find("rms_norm")
class _Id(torch.nn.Module):
    def forward(self, x, gain, eps):
        return x
_M = _Id()
_M.register_forward_hook(lambda m, args, out: _K[0](args[0], args[0].shape[-1:], args[1], args[2]))
def rms_norm(x, gain, eps=1e-6):
    return _M(x, gain, eps)
'''),
 "h4 a tensor subclass with __torch_function__": ("rms_norm", '''
class T(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {})
def rms_norm(x, gain, eps=1e-6):
    return gain * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
'''),
 "h5 flex_attention (a higher-order operator) for a1 mha": ("multi_head_attention", '''
from torch.nn.attention.flex_attention import flex_attention
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    B, T, d = x_q.shape
    q = (x_q @ W_q).view(B, T, n_heads, d // n_heads).transpose(1, 2)
    k = (x_kv @ W_k).view(B, -1, n_heads, d // n_heads).transpose(1, 2)
    v = (x_kv @ W_v).view(B, -1, n_heads, d // n_heads).transpose(1, 2)
    return flex_attention(q, k, v).transpose(1, 2).reshape(B, T, d) @ W_o
'''),
}
for label, (name, src) in CASES.items():
    norms = name == "rms_norm"
    rules = Rules(forbid=TORCH_NORMS if norms else TORCH_ATTENTION)
    scan = evidence_by_part({name: src}, {name: rules}, ["import math\nimport torch\nimport torch.nn.functional as F\n"])
    ns = {"torch": torch, "math": math, "F": F}
    try:
        exec(compile(src, f"<cell {name}>", "exec"), ns)
        if norms:
            args = [torch.randn(3, 8, dtype=torch.float64), torch.randn(8, dtype=torch.float64)]
            forbid = [("torch.nn.functional", "rms_norm"), ("torch", "rms_norm"), ("torch.nn", "RMSNorm")]
        else:
            args = [torch.randn(2, 5, 8, dtype=torch.float64), torch.randn(2, 5, 8, dtype=torch.float64), *[torch.randn(8, 8, dtype=torch.float64) for _ in range(4)], 2]
            forbid = [("torch.nn.functional", "scaled_dot_product_attention"), ("torch._C._nn", "scaled_dot_product_attention"), ("torch.nn.functional", "multi_head_attention_forward")]
        r = call_in(ns, name, args, grad_args=[0, 1] if norms else [], forbid=forbid)
        tr = traced({name: rules}, {name: set(r.operators)}, [] if r.trace_intact else [name])
        run = "trace: " + "; ".join(e.key for e in tr.get(name, [])) if tr else "trace: nothing"
    except Exception as e:
        run = f"call raised {type(e).__name__}: {str(e)[:100]}"
    print(f"{label}\n   scan: {'; '.join(e.kind + ' ' + e.key for e in scan.get(name, [])) or 'nothing'}\n   {run}")
