# expect: loses cross_attention  -- applies memory_mask only in the first-step branch; later steps (cache given) attend to the padded source positions; spec: "the padded source positions masked out (memory_mask (B, S), torch.long, 1 = real token, 0 = padding, given on every step, or None ...)" -- "Then, every step: ..."
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads
    q = (x @ p["W_q"]).view(B, 1, n_heads, d_kv).transpose(1, 2)
    if cache is None:  # first step: project the source, mask its padding
        S = memory.shape[1]
        k = (memory @ p["W_k"]).view(B, S, n_heads, d_kv).transpose(1, 2)
        v = (memory @ p["W_v"]).view(B, S, n_heads, d_kv).transpose(1, 2)
        scores = q @ k.transpose(-2, -1)
        if memory_mask is not None:
            scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
        cache = (k, v)
    else:  # later steps: reuse the keys and values
        k, v = cache
        scores = q @ k.transpose(-2, -1)
    weights = torch.softmax(scores, dim=-1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv) @ p["W_o"]
    return out, cache
