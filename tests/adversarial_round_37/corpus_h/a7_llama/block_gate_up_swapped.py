# expect: loses block -- passes W_up as swiglu's gate and W_gate as its up projection; the visible checks are step consistency and W_down = 0, both blind to the swap; differs for any W_gate != W_up, e.g. the visible p with T=6
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    up, gate, down = p["W_up"], p["W_gate"], p["W_down"]
    return h + swiglu(rms_norm(h, p["ffn_norm"], eps), up, gate, down), cache
