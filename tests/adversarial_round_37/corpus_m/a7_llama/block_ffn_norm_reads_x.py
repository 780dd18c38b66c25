# expect: loses block -- the feed-forward's RMSNorm reads the block input x instead of h = x + attention; the visible tests (step-by-step vs whole, and both sub-layers zeroed) cannot see it; breaks 'out = h + FFN(RMSNorm(h; g_ffn))'; input: d,h,h_kv,d_ff = 16,4,1,24, weights randn/4, x randn(1,6,16) -> outputs differ from the key's
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    return h + swiglu(rms_norm(x, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]), cache
