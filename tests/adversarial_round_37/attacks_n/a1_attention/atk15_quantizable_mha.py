# expect: loses mha -- torch's own multi-head attention, as torch.ao.nn.quantizable.MultiheadAttention (a subclass of nn.MultiheadAttention whose float forward is plain linear/bmm/softmax, never F.multi_head_attention_forward or SDPA), with the given weights put in place of its Linear weights
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    B, T_q, d = x_q.shape
    T_k = x_kv.shape[1]
    layer = torch.ao.nn.quantizable.MultiheadAttention(d, n_heads, bias=False)
    for lin, W in ((layer.linear_Q, W_q), (layer.linear_K, W_k), (layer.linear_V, W_v), (layer.out_proj, W_o)):
        del lin.weight
        lin.weight = W.transpose(0, 1)
    blocked, has_key = None, None
    if mask is not None:
        mask = (mask.unsqueeze(0) if mask.dim() == 2 else mask).expand(B, T_q, T_k)
        has_key = mask.any(dim=-1, keepdim=True)
        blocked = (~(mask | ~has_key)).repeat_interleave(n_heads, dim=0)
    out, _ = layer(x_q.transpose(0, 1), x_kv.transpose(0, 1), x_kv.transpose(0, 1), attn_mask=blocked, need_weights=False)
    out = out.transpose(0, 1)
    return out if has_key is None else out.masked_fill(~has_key, 0.0)
