# expect: loses block -- `eps = eps or 1e-6`: an eps given explicitly as 0.0 (falsy) is replaced by the default; "eps is both norms' epsilon" (and part 2 takes eps = 0.0); x = 1e-4 * randn(1,6,16), the visible p, eps=0.0: key and this answer differ by 2.5 (max abs); eps 1e-6 or 1e-5: equal
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    eps = eps or 1e-6  # Llama's default when none is given
    base = base or 10000.0
    a = rms_norm(x, p["attn_norm"], eps)
    attended, new_cache = grouped_query_attention(a, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache=cache, base=base)
    h = x + attended
    f = swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])
    return h + f, new_cache
