# expect: loses nothing -- an honest, right scaled_dot_product_attention that loops over the query rows (one softmax per row, as a learner might write it first): slow on the hidden checks' long inputs but right; at worst a slow part may cost its own points, never the other parts' (control for the time-limit spill of atk13)
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention, one query row at a time."""
    T_q, T_k = q.shape[-2], k.shape[-2]
    lead = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2], () if mask is None else mask.shape[:-2])
    if mask is not None:
        mask = mask.expand(lead + (T_q, T_k))
    kt = k.transpose(-2, -1)
    outs, rows = [], []
    for i in range(T_q):
        scores = q[..., i : i + 1, :] @ kt / math.sqrt(q.shape[-1])  # (..., 1, T_k)
        if mask is None:
            w = torch.softmax(scores, dim=-1)
        else:
            m = mask[..., i : i + 1, :]
            has_key = m.any(dim=-1, keepdim=True)
            w = torch.softmax(scores.masked_fill(~m & has_key, float("-inf")), dim=-1).masked_fill(~has_key, 0.0)
        w = w.expand(lead + (1, T_k))
        rows.append(w)
        outs.append(w @ v)
    return torch.cat(outs, dim=-2), torch.cat(rows, dim=-2)
