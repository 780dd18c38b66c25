# expect: loses mha -- memoises the fused projection torch.cat([W_q, W_k, W_v]) in a module-level dict keyed by (id(W_q), id(W_k), id(W_v)), so later calls with the same weight objects reuse a stale copy: an optimiser step (an in-place update of W_q, same id) or a new weight tensor that Python gives a freed object's id makes the function compute with old weights; the visible tests call it with distinct live tensors and pass; breaks the part's formula Q = X_q W_q, K = X_kv W_k, V = X_kv W_v for the weights given; input: call once, then `with torch.no_grad(): W_q.add_(1.0)` and call again -> output equals the first call's (key: changes)
# %% [mha]
_FUSED = {}  # (id(W_q), id(W_k), id(W_v)) -> the three weights side by side, built once


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    key = (id(W_q), id(W_k), id(W_v))
    if key not in _FUSED:
        _FUSED[key] = torch.cat([W_q, W_k, W_v], dim=1)  # (d, 3d): one matrix product for q, k and v
    W_qkv = _FUSED[key]
    d = W_q.shape[0]
    q = x_q @ W_qkv[:, :d]
    k, v = (x_kv @ W_qkv[:, d:]).split(d, dim=-1)
    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)  # (B, 1, T_q or 1, T_k): broadcast over heads
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
