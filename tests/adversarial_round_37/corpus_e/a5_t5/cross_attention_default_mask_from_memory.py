# expect: loses cross_attention -- when memory_mask is None it builds an all-ones mask from memory's shape on every step, later steps included: memory is read after the first step, and a later call with the cache and another memory tensor (of another length, or None) raises or broadcasts wrongly; spec: "On **later steps** `cache` is the `(k, v)` you returned: use it, do not project `memory` again (it is passed, but the tests may pass a different tensor there: reading it would be a bug)"
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads
    if memory_mask is None:  # no padding: every source position is real
        memory_mask = torch.ones(memory.shape[:2], dtype=torch.long)

    def heads(t):  # (B, T, n_heads * d_kv) -> (B, n_heads, T, d_kv)
        return t.view(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:  # the first step: the source is projected once
        cache = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
    k, v = cache
    q = heads(x @ p["W_q"])  # (B, h, 1, d_kv)
    scores = q @ k.transpose(-2, -1)  # (B, h, 1, S): T5 does not scale
    scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache
