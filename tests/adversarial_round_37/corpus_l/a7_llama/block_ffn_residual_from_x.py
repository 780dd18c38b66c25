# expect: loses block -- the second residual adds the FFN to the block's input x instead of to h = x + attention, so the attention's output reaches the result only through the FFN; with W_o = 0 (the visible identity test) h = x and nothing shows, and one-step-at-a-time equals the whole sequence either way; breaks "out = h + FFN(RMSNorm(h; g_ffn))"; input: the visible p, x = randn(1, 6, 16), h = 4, h_kv = 1 -> out differs from the spec's by the attention output
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    out = x + swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])
    return out, cache
