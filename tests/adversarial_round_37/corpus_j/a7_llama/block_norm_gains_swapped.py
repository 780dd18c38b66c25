# expect: loses block -- the attention sub-layer is normalised with ffn_norm and the feed-forward with attn_norm (invisible when both gains are ones, as in the visible test): p with attn_norm = 1 + 0.1 randn, ffn_norm = 1 + 0.1 randn gives a different output
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    normed = rms_norm(x, p["ffn_norm"], eps)
    attn_out, new_cache = grouped_query_attention(
        normed, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache=cache, base=base
    )
    h = x + attn_out
    ffn_out = swiglu(rms_norm(h, p["attn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])
    return h + ffn_out, new_cache
