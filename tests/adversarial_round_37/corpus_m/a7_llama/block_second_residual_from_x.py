# expect: loses block -- the second residual adds the FFN output to x instead of h, so the attention's contribution is dropped from the output (it only reaches the FFN's input); breaks 'out = h + FFN(RMSNorm(h; g_ffn))' with h = x + GQA(...); input: the visible block's weights, x randn(1,6,16) -> outputs differ by the attention output; the visible zeroed test (W_o = W_down = 0) and the step-by-step test pass
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    return x + swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]), cache
