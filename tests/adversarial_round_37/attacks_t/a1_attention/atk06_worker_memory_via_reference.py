# expect: 12/12 (every answer is the key's); what a student's process can make the trusted worker allocate should be bounded like the student's own memory. Here mha first sends the grader's correct scaled_dot_product_attention (a proxy that runs in the worker) one call on 12 MB of queries, keys and values with 16,000 positions, whose score matrix is 16,000 x 16,000.
# %% [mha]
_BIG_DONE = []


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """The key's mha, after one large call of the (proxied) scaled_dot_product_attention per process."""
    if not _BIG_DONE:
        _BIG_DONE.append(1)
        big = torch.zeros(1, 1, 16000, 64)
        try:
            scaled_dot_product_attention(big, big, big)
        except Exception as error:  # the worker's own refusal, if any, comes back as an error
            print("big call:", type(error).__name__, str(error)[:200])
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
