import torch, math, sys
import sys; sys.path.insert(0, "/work/main/tests/adversarial_round_37/attacks_u/outputs")
from common import HELPER
from course_grading.sandbox.calls import call_in, probe
from course_grading.sandbox.shortcuts import evidence_by_part, Rules, TORCH_NORMS, TORCH_ATTENTION, traced
RMS = HELPER + r'''
_RMS = _find("rms", "_", "norm")


def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    x = x + 0
    return _Unseen.apply(lambda a, g: _RMS[0](a, a.shape[-1:], g, eps), x, gain)
'''
MHA = HELPER + r'''
_ATT = _find("scaled", "_dot_", "product", "_attention")


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """torch's attention, unseen."""
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is None:
        out = _Unseen.apply(lambda a, b, c: _ATT[0](a, b, c), q, k, v)
    else:
        if mask.dim() == 3:
            mask = mask.unsqueeze(1)
        out = _Unseen.apply(lambda a, b, c, m: _ATT[0](a, b, c, attn_mask=m), q, k, v, mask)
        out = out.masked_fill(~mask.any(dim=-1, keepdim=True), 0.0)
    return merge_heads(out) @ W_o
'''
def split_heads(x, n_heads):
    B, T, d_model = x.shape
    return x.view(B, T, n_heads, d_model // n_heads).transpose(1, 2)
def merge_heads(x):
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)
for name, src, rules, forbid, args, ga, ref in [
  ("rms_norm", RMS, Rules(forbid=TORCH_NORMS), [("torch.nn.functional","rms_norm"),("torch","rms_norm")],
   lambda: [torch.randn(3,4,8,dtype=torch.float64), torch.randn(8,dtype=torch.float64)], [0,1],
   lambda x,g: g*x*torch.rsqrt(x.pow(2).mean(-1,keepdim=True)+1e-6)),
  ("multi_head_attention", MHA, Rules(forbid=TORCH_ATTENTION), [("torch.nn.functional","scaled_dot_product_attention"),("torch._C._nn","scaled_dot_product_attention"),("torch.nn.functional","multi_head_attention_forward")],
   None, [0,1,2,3,4,5], None)]:
    ns = {"torch": torch, "math": math, "split_heads": split_heads, "merge_heads": merge_heads}
    exec(compile(src, f"<cell {name}>", "exec"), ns)
    print(name, "scan:", evidence_by_part({name: src}, {name: rules}, ["import math\nimport torch\n"]))
    if name == "rms_norm":
        a = args()
        r = call_in(ns, name, a, grad_args=ga, forbid=forbid)
        xr, gr = a[0].clone().requires_grad_(), a[1].clone().requires_grad_()
        e = ref(xr, gr); 
        g1 = torch.autograd.grad((e*probe(e).detach()).sum(), (xr, gr))
        print(" err", (r.value-e).abs().max().item(), [ (x-y).abs().max().item() for x,y in zip(r.grads,g1)])
    else:
        B,T,S,d,h=2,5,7,8,2
        xq, xkv = torch.randn(B,T,d,dtype=torch.float64), torch.randn(B,S,d,dtype=torch.float64)
        Ws=[torch.randn(d,d,dtype=torch.float64)/3 for _ in range(4)]
        mask = torch.rand(B,T,S)>0.5; mask[0,1]=False
        r = call_in(ns, name, [xq,xkv,*Ws,h,mask], grad_args=ga, forbid=forbid)
        ref_ns = {"torch":torch,"math":math}
        import json
        key = [c for c in json.load(open('/tmp/au/solutions/a1_attention/a1_attention.ipynb'))['cells']]
        srcs = [''.join(c['source']) for c in key if 'def scaled_dot_product_attention' in ''.join(c['source']) or 'def split_heads' in ''.join(c['source']) or 'def multi_head_attention' in ''.join(c['source'])]
        for s in srcs: exec(s, ref_ns)
        leaves=[t.clone().requires_grad_() for t in [xq,xkv,*Ws]]
        e = ref_ns['multi_head_attention'](*leaves, h, mask)
        g1 = torch.autograd.grad((e*probe(e).detach()).sum(), leaves)
        print(" err", (r.value-e).abs().max().item(), [ (x-y).abs().max().item() for x,y in zip(r.grads,g1)])
    print(" trace:", sorted(n for n in r.operators if 'norm' in n or 'att' in n), r.trace_intact, traced({name: rules}, {name: set(r.operators)}, [] if r.trace_intact else [name]))
