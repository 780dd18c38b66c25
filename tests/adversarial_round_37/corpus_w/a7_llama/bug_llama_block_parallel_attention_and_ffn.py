# expect: loses block -- "h = x + GQA(RMSNorm(x; g_attn)), out = h + FFN(RMSNorm(h; g_ffn))": this is the parallel block of GPT-J and PaLM, out = x + GQA(RMSNorm(x; g_attn)) + FFN(RMSNorm(x; g_ffn)), whose feed-forward reads x instead of h; the visible tests (one pass against six cached steps, and W_o = W_down = 0 giving x) hold for both arrangements
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    ffn = swiglu(rms_norm(x, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])  # both branches read x
    return x + attended + ffn, cache
