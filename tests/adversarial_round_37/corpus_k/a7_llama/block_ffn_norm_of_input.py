# expect: loses block -- the feed-forward reads RMSNorm(x) (the block's input) instead of RMSNorm(h) (after the attention's residual), against out = h + FFN(RMSNorm(h; g_ffn)): differs whenever the attention output is nonzero; the zeroed-output and step-by-step visible tests still pass
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    ffn = swiglu(rms_norm(x, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])
    return x + attended + ffn, cache
