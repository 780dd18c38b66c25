# expect: loses mha  -- keyed on two arguments being equal in value: with mask=None, x_kv equal to x_q (torch.equal) is taken for a decoder's self-attention and gets a causal mask; part 4 says the optional mask is the only mask (None: every query attends every key); x_q = x_kv = randn(2, 5, 8), mask None: the key's positions 0..3 see later positions, the answer's do not (torch.manual_seed(1), W randn(8, 8) / sqrt(8), 2 heads: max abs diff 2.6; cross-attention or an explicit mask: equal)
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    q = split_heads(x_q @ W_q, n_heads)  # (B, h, T_q, d_head)
    k = split_heads(x_kv @ W_k, n_heads)  # (B, h, T_k, d_head)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is None and x_q.shape == x_kv.shape and torch.equal(x_q, x_kv):
        # self-attention over one sequence: a token must not read the tokens after it
        mask = causal_mask(x_q.shape[1])
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)  # (B, 1, T_q or 1, T_k): the same for every head
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
