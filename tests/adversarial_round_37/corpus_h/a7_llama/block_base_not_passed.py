# expect: loses block -- the rotary base is not passed to grouped_query_attention (cache passed by keyword, base left at its default); the visible tests use the default base; differs for any other base with T >= 2 or a cache, e.g. base=500000.0, T=6
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    normed = rms_norm(x, p["attn_norm"], eps)
    attended, new_cache = grouped_query_attention(normed, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache=cache)
    h = x + attended
    return h + swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]), new_cache
