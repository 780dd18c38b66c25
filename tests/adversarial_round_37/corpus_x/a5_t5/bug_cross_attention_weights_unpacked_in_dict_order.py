# expect: loses cross_attention -- "`p` holds `W_q`, `W_k`, `W_v` (d_model, n_heads * d_kv) and `W_o` (n_heads * d_kv, d_model)": the weights are taken as `W_q, W_k, W_v, W_o = p.values()`, the order cross_attention_weights inserts them and the visible tests keep; the same dict built in another order (sorted names W_k, W_o, W_q, W_v, or copied from a module's state_dict as q, k, v, o in another sequence) projects the queries with W_k, the keys with W_o, ... (wrong values, or a shape error where d_model != n_heads * d_kv)
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    W_q, W_k, W_v, W_o = p.values()
    B = x.shape[0]
    d_kv = W_q.shape[1] // n_heads

    def heads(t):
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:
        cache = (heads(memory @ W_k), heads(memory @ W_v))
    k, v = cache
    scores = heads(x @ W_q) @ k.transpose(-2, -1)
    if memory_mask is not None:
        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    out = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return out @ W_o, cache
