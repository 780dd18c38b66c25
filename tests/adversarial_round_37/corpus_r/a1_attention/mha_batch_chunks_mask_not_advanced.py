# expect: loses mha -- the batch in blocks of 16 sequences, each block given mask[:n] (the first rows of a per-sequence mask) instead of mask[i:i + n]: right for B <= 16 or 2-D masks, wrong past the first block; "mask: (B, T_q, T_k) or (B, 1, T_k) ... True = may attend"; B = 20, x randn(20, 5, 8), memory randn(20, 7, 8), padding_mask(randint(1, 8, (20,)), 7), 2 heads: max abs diff 1.23; B = 16: 0.0; no mask: 0.0
# %% [mha]
_BATCH_CHUNK = 16  # sequences per block: bounds the (chunk, h, T_q, T_k) scores held at once


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    outs = []
    for i in range(0, x_q.shape[0], _BATCH_CHUNK):
        xq, xkv = x_q[i : i + _BATCH_CHUNK], x_kv[i : i + _BATCH_CHUNK]
        q = split_heads(xq @ W_q, n_heads)
        k = split_heads(xkv @ W_k, n_heads)
        v = split_heads(xkv @ W_v, n_heads)
        m = mask
        if m is not None and m.dim() == 3:
            m = m[: xq.shape[0]].unsqueeze(1)  # this block's rows of a per-sequence mask, and a head axis
        out, _ = scaled_dot_product_attention(q, k, v, m)
        outs.append(merge_heads(out) @ W_o)
    return torch.cat(outs, dim=0)
