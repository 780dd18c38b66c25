# expect: loses block -- calls rms_norm without eps, so both norms always use rms_norm's default 1e-6, against "eps is both norms' epsilon": wrong whenever eps is passed (e.g. eps=1e-2, or eps=1e-5 with small activations)
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    return h + swiglu(rms_norm(h, p["ffn_norm"]), p["W_gate"], p["W_up"], p["W_down"]), cache
