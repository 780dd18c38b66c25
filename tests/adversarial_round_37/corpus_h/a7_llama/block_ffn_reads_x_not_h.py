# expect: loses block -- the feed-forward reads RMSNorm(x) instead of RMSNorm(h) (GPT-J's parallel branches, with Llama's sequential residual): per-position, so the step-by-step check agrees with itself, and the zero-weights check zeroes the FFN; differs whenever W_o is not zero, e.g. the visible p with T=6
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    fed = swiglu(rms_norm(x, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])
    h = x + attended
    return h + fed, cache
