"""atk08's mechanism in-process: the grader's install() (calls.py) swaps the correct layer_norm in by name and by
every alias in the namespace; pre_ln_block's default argument still holds the notebook's own (CrossMapLRN2d) one."""
import re, math, torch
from course_grading.sandbox.calls import install
src = open("/work/main/tests/adversarial_round_37/attacks_u/a2_blocks/atk08_default_arg_keeps_own_layernorm.py").read()
secs = dict(re.findall(r"# %% \[(\w+)\]\n(.*?)(?=# %% \[|\Z)", src, re.S))
ns = {"torch": torch, "math": math}
for k in ("layer_norm", "pre_ln", "decoder"):
    exec(compile(secs[k], f"<cell {k}>", "exec"), ns)
own = ns["layer_norm"]
def correct_layer_norm(x, gain, bias, eps=1e-5):
    return torch.nn.functional.layer_norm(x, x.shape[-1:], gain, bias, eps)
install(ns, {"layer_norm": correct_layer_norm})
print("namespace layer_norm is the correct one:", ns["layer_norm"] is correct_layer_norm)
print("pre_ln_block's default _ln is the notebook's own:", ns["pre_ln_block"].__defaults__[-1] is own)
print("decoder_block's default _ln is the notebook's own:", ns["decoder_block"].__defaults__[-1] is own)
x = torch.randn(2, 3, 8, dtype=torch.float64); g = torch.randn(8, dtype=torch.float64); b = torch.randn(8, dtype=torch.float64)
print("the notebook's own (CrossMapLRN2d) equals LayerNorm:", (own(x, g, b) - correct_layer_norm(x, g, b)).abs().max().item())
