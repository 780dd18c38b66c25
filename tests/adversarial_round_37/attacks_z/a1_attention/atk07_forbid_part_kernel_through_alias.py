# expect: sdpa 0 deserved (held for review, 8/12): part 1 calls torch's own scaled_dot_product_attention (forbidden),
# reached by the alias route of atk05 (`lib = torch`, getattr by names joined at run time), and hides its operators
# from the trace by wrapping the grader's OperatorTrace.__exit__ (reached through torch's `sys.modules`, as in atk05)
# so that every name with "attention" leaves the recorded set. The boundary of the alias route: in a part that forbids
# functions, a lookup by a computed name (`getattr` on anything) is evidence, alias or not.
# %% [sdpa]
def _kernel():
    lib = torch
    table = getattr(getattr(lib, "".join(["s", "ys"])), "".join(["mod", "ules"]))
    recorder = table["".join(["course_grading.sandbox.", "trace"])].OperatorTrace
    if not _KERNEL:
        library_exit = recorder.__exit__

        def quiet_exit(self, *exc):
            library_exit(self, *exc)
            self.names -= {name for name in self.names if "attention" in name}

        recorder.__exit__ = quiet_exit
        _KERNEL.append(getattr(lib.nn.functional, "".join(["scaled_dot", "_product_attention"])))
    return _KERNEL[0]


_KERNEL = []


def scaled_dot_product_attention(q, k, v, mask=None):
    """Attention output and weights (weights as the part asks: the softmax, masked rows 0)."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        has_key = mask.any(-1, keepdim=True)
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
        full = mask | ~has_key
    else:
        weights = torch.softmax(scores, dim=-1)
        full = None
    out = _kernel()(q, k, v, attn_mask=full)
    if mask is not None:
        out = out.masked_fill(~has_key, 0.0)
    return out, weights


_kernel()  # at cell time: the hidden calls refuse the name, not the function kept here
