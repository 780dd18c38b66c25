# expect: loses block -- eps is not passed to rms_norm (its default 1e-6 always used): llama_block(x, p, 4, 1, eps=1e-2) on x = 0.1 * randn(1, 6, 16) gives the eps=1e-6 output
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache=cache, base=base
    )
    h = x + attended
    out = h + swiglu(rms_norm(h, p["ffn_norm"]), p["W_gate"], p["W_up"], p["W_down"])
    return out, cache
