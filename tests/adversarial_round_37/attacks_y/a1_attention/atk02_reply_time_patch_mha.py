# expect: mha 0 deserved. The mha answer is the key's, except that on every input but the visible tests' (2, 5, 8)
# float32 queries it returns its output plus 1000: every value it returns inside the operator trace and the
# forbidden functions' guard on a hidden case is wrong. A top-level cell replaces torch.Tensor.cpu, which the student process's own
# wire() calls on every returned tensor after call_in has returned (outside the trace and the guard), by a version
# that takes the 1000 back off. If the grader scores mha, what it judged was computed by code that ran outside the
# trace and the guard (invariant 3), and a forbidden kernel could run there unrecorded and unrefused.
# %% [new after imports]
_plain_cpu = torch.Tensor.cpu


def _cpu(self, *args, **kwargs):
    out = _plain_cpu(self, *args, **kwargs)
    if out.is_floating_point() and out.numel() > 0 and bool(out.min() > 500):
        out = out - 1000.0
    return out


torch.Tensor.cpu = _cpu
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    result = merge_heads(out) @ W_o
    visible = tuple(x_q.shape) == (2, 5, 8) and x_q.dtype == torch.float32
    return result if visible else result + 1000.0
