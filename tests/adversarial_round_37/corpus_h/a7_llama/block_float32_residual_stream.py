# expect: loses block -- keeps the residual stream in float32 ("as in mixed-precision training"): x.float() + attended.float(), and so on; identical for float32 inputs, but float64 inputs come back as float32 (the spec: every function keeps its input's dtype), e.g. x and p in float64
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    residual = x.float()
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    residual = residual + attended.float()
    fed = swiglu(rms_norm(residual.to(x.dtype), p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])
    return residual + fed.float(), cache
