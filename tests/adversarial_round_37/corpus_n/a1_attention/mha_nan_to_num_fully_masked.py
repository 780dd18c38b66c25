# expect: loses mha -- lets the softmax of a fully masked query produce NaN and repairs the output with torch.nan_to_num; the values are right (zeros for that query, the rest exact) so the visible tests pass, but the backward pass multiplies the zeroed output gradient by the NaN weights when it forms the gradient of v, so x_kv.grad and W_v.grad become NaN; breaks 'a query that may attend no key at all ... gets a zero vector from every head, not NaN' together with 'gradients flow back to x_q, x_kv, W_q, W_k, W_v and W_o' (part 1: 'its gradients must stay finite (no NaN) even when a query is fully masked'); input: cross-attention with padding_mask(tensor([0, 3]), 7), backward with a random cotangent -> x_kv.grad and W_v.grad contain NaN (key: all finite)
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    q = split_heads(x_q @ W_q, n_heads)  # (B, h, T_q, d_head)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (B, h, T_q, T_k)
    if mask is not None:
        if mask.dim() == 3:
            mask = mask.unsqueeze(1)  # an axis for the heads
        scores = scores.masked_fill(~mask, float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v
    out = torch.nan_to_num(out)  # a query with no key: softmax of all -inf is NaN, which means "nothing": 0
    return merge_heads(out) @ W_o
