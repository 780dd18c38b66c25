# expect: loses block -- the attention's norm uses ffn_norm and the feed-forward's uses attn_norm; the visible tests set both gains to ones; differs for any two different gains, e.g. attn_norm = 1 + 0.1 * randn(d), ffn_norm = 1 + 0.1 * randn(d)
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    g_attn, g_ffn = p["ffn_norm"], p["attn_norm"]
    attended, cache = grouped_query_attention(
        rms_norm(x, g_attn, eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    return h + swiglu(rms_norm(h, g_ffn, eps), p["W_gate"], p["W_up"], p["W_down"]), cache
