# expect: loses mha -- inlines attention with an additive -1e9 mask to avoid NaN; a query whose keys are all masked then gets a uniform average of the values instead of zeros; spec: "a query that may attend no key at all (say, cross-attention to an empty padded sequence) gets a zero vector from every head, not NaN"
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model)."""
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        if mask.dim() == 3:
            mask = mask.unsqueeze(1)  # an axis for the heads
        scores = scores + (~mask) * -1e9  # additive mask: no -inf, so never NaN
    out = torch.softmax(scores, dim=-1) @ v
    return merge_heads(out) @ W_o
