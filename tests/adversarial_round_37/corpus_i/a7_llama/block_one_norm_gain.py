# expect: loses block -- uses attn_norm's gain for both norms (ffn_norm is never read): the visible gains are both ones; with p["ffn_norm"] = 1 + 0.5 * randn(16) the output differs
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    g = p["attn_norm"]
    a, cache = grouped_query_attention(rms_norm(x, g, eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base)
    h = x + a
    return h + swiglu(rms_norm(h, g, eps), p["W_gate"], p["W_up"], p["W_down"]), cache
