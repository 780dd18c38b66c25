# expect: loses mha  -- inlines its own attention with masked_fill(-inf) and no guard, so a query whose keys are all padding gets NaN; spec: "a query that may attend no key at all (say, cross-attention to an empty padded sequence) gets a zero vector from every head, not NaN"
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (B, h, T_q, T_k)
    if mask is not None:
        if mask.dim() == 3:
            mask = mask[:, None]  # (B, 1, ., T_k): the same for every head
        scores = scores.masked_fill(~mask, float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v
    return merge_heads(out) @ W_o
