# expect: loses block -- normalises both sub-layers' inputs with the same gain, p["attn_norm"] ('the block's RMSNorm'), and never reads p["ffn_norm"]; the visible test sets both gains to ones and passes; breaks 'out = h + FFN(RMSNorm(h; g_ffn))' ('p is a dict of the block's weights: attn_norm and ffn_norm (d,)'), and ffn_norm gets no gradient (hidden: 'gradients flow back to ... every tensor of p'); input: the visible p with ffn_norm = 2 * ones(16) -> output differs from the key's by ~8, ffn_norm.grad None
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    def norm(t):  # the block's RMSNorm
        return rms_norm(t, p["attn_norm"], eps)

    attended, cache = grouped_query_attention(norm(x), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base)
    h = x + attended
    return h + swiglu(norm(h), p["W_gate"], p["W_up"], p["W_down"]), cache
