# expect: loses block -- passes the block's arguments to grouped_query_attention positionally and one slot off: (..., n_heads, n_kv_heads, cache, eps), so eps lands in base and the rotary base becomes 1e-6 (theta_i = 1e-6 ** (-2i / d_head), huge angles) while the given base is ignored; both visible checks (one step at a time = the whole sequence, and the residual stream with zeroed sub-layers) are blind to the rotary base. Breaks "eps is both norms' epsilon and base the rotary base"; input: the visible p (d=16, h=4, h_kv=1, d_ff=24), x = randn(1, 6, 16) -> key vs this answer max abs diff 1.99 (position 0 equal)
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    normed = rms_norm(x, p["attn_norm"], eps)
    attended, cache = grouped_query_attention(normed, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, eps)
    h = x + attended
    return h + swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]), cache
