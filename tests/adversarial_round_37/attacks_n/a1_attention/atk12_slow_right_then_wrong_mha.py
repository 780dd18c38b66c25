# expect: loses mha -- right for its visible calls; every hidden call is right but spins about 15 s (under the 30 s a call may take), and from the 7th hidden call on it is wrong: the part's or the submission's time limit must cost this part (timed out or wrong), never turn into "not graded" or cost the other parts
# %% [mha]
_calls = [0]


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention."""
    _calls[0] += 1
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    if _calls[0] > 3:
        n = 0
        for _ in range(200_000_000):
            n += 1
    if _calls[0] > 9:
        return merge_heads(out) @ W_o * 1.5  # WRONG
    return merge_heads(out) @ W_o
