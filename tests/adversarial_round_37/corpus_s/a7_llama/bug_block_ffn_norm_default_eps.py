# expect: loses block -- the second norm called without eps (`rms_norm(h, p["ffn_norm"])`, so 1e-6 whatever eps is given), where "eps is both norms' epsilon"; the visible test's kind of weights with h 4, h_kv 2, d 16, d_ff 24 (seed 0), x randn(2, 5, 16) * 0.3, eps 0.5: max abs diff vs key 2.12; eps 0 in float64: 1.5e-06 relative; the default eps: equal
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    normed = rms_norm(x, p["attn_norm"], eps)
    attended, cache = grouped_query_attention(normed, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache=cache, base=base)
    h = x + attended
    return h + swiglu(rms_norm(h, p["ffn_norm"]), p["W_gate"], p["W_up"], p["W_down"]), cache
