# expect: loses block -- both rms_norm calls drop the eps argument (the norms always use their default 1e-6); the visible tests use the default; differs for any other eps, e.g. eps=1e-5 (Llama 2's) or eps=0.1, with d=16, n_heads=4, n_kv_heads=1
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    out = h + swiglu(rms_norm(h, p["ffn_norm"]), p["W_gate"], p["W_up"], p["W_down"])
    return out, cache
