# expect: loses cross_attention  -- projects memory on every call and returns that fresh projection as the cache (it attends with the cache it was given, but reads memory on later steps and hands back a cache built from whatever memory was passed); spec: "On later steps cache is the (k, v) you returned: use it, do not project memory again (it is passed, but the tests may pass a different tensor there: reading it would be a bug)"
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B, S, _ = memory.shape
    d_kv = p["W_q"].shape[1] // n_heads
    k_mem = (memory @ p["W_k"]).view(B, S, n_heads, d_kv).transpose(1, 2)
    v_mem = (memory @ p["W_v"]).view(B, S, n_heads, d_kv).transpose(1, 2)
    k, v = cache if cache is not None else (k_mem, v_mem)
    q = (x @ p["W_q"]).view(B, 1, n_heads, d_kv).transpose(1, 2)
    scores = q @ k.transpose(-2, -1)  # no 1/sqrt(d_kv) in T5
    if memory_mask is not None:
        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    out = (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv) @ p["W_o"]
    return out, (k_mem, v_mem)
