# expect: loses cross_attention -- the padding mask is applied inside the first step's branch only (where the cache is made), so later steps attend to padded source positions; "memory_mask (B, S) ... given on every step"; the visible p, memory randn(2,5,8), mask [[1,1,1,1,1],[1,1,0,0,0]], the cache from a first step, then a second step with x2: key's row 1 ignores positions 2-4, this answer's does not (max abs diff 0.62; row 0, unpadded, equal); first steps equal
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads
    q = (x @ p["W_q"]).reshape(B, 1, n_heads, d_kv).transpose(1, 2)
    if cache is None:
        S = memory.shape[1]
        k = (memory @ p["W_k"]).reshape(B, S, n_heads, d_kv).transpose(1, 2)
        v = (memory @ p["W_v"]).reshape(B, S, n_heads, d_kv).transpose(1, 2)
        cache = (k, v)
        scores = q @ k.transpose(-2, -1)
        if memory_mask is not None:
            scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    else:
        k, v = cache
        scores = q @ k.transpose(-2, -1)
    out = torch.softmax(scores, dim=-1) @ v
    return out.transpose(1, 2).reshape(B, 1, n_heads * d_kv) @ p["W_o"], cache
