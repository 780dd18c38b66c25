# expect: loses block -- both RMSNorms use p["attn_norm"] (copy-paste); identical while the two gains are equal, as they are at initialisation and in the visible tests (both torch.ones); breaks "out = h + FFN(RMSNorm(h; g_ffn))" ("attn_norm and ffn_norm (d,)"); input: the visible p with ffn_norm = 1 + 0.5 * randn(16) -> out differs from the spec's
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    norm = lambda t: rms_norm(t, p["attn_norm"], eps)
    attended, cache = grouped_query_attention(
        norm(x), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache=cache, base=base
    )
    h = x + attended
    return h + swiglu(norm(h), p["W_gate"], p["W_up"], p["W_down"]), cache
