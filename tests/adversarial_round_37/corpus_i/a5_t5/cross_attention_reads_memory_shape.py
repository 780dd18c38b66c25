# expect: loses cross_attention -- reads memory's shape on every step (S for the mask view): on a cached step with a stand-in memory of another length, e.g. memory=torch.zeros(2, 1, 8) and memory_mask (2, 5), it raises instead of using the cache
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model)."""
    B, S, _ = memory.shape
    d_kv = p["W_q"].shape[1] // n_heads
    if cache is None:
        k = (memory @ p["W_k"]).view(B, S, n_heads, d_kv).transpose(1, 2)
        v = (memory @ p["W_v"]).view(B, S, n_heads, d_kv).transpose(1, 2)
        cache = (k, v)
    k, v = cache
    q = (x @ p["W_q"]).view(B, 1, n_heads, d_kv).transpose(1, 2)
    scores = q @ k.transpose(-2, -1)  # no 1/sqrt(d_kv) in T5
    if memory_mask is not None:
        scores = scores.masked_fill(memory_mask.view(B, 1, 1, S) == 0, float("-inf"))
    out = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return out @ p["W_o"], cache
