# What the worker does with a reply: calls.receive_frame's checks and torch.load(weights_only=True), unwire, then
# what a check plausibly does with a value (shape, dtype, float64 copy, isfinite, allclose, tolist).
import io, sys, resource, torch
resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))  # the worker's own limit
from course_grading.sandbox.calls import _check_archive, _check_nodes, unwire
data = open(sys.argv[1], "rb").read()
_check_archive(data)
msg = torch.load(io.BytesIO(data), weights_only=True)
_check_nodes(msg)
v = unwire(msg["value"])
print("loaded", type(v).__name__, getattr(v, "shape", None), getattr(v, "dtype", None), getattr(v, "layout", None), flush=True)
for op in ("v.shape", "v.dtype", "v.to(torch.float64)", "torch.isfinite(v).all()", "torch.allclose(v.to(torch.float64), torch.zeros(v.shape, dtype=torch.float64))", "v.tolist()[:1]", "v.clone()", "v.contiguous()", "(v - 0).abs().max()", "v.sum()"):
    try:
        r = eval(op)
        print("  ok", op, str(r)[:60], flush=True)
    except BaseException as e:
        print("  raised", op, type(e).__name__, str(e)[:80], flush=True)
