# expect: loses block — passes eps to the attention norm only; the feed-forward norm runs with rms_norm's default 1e-6, so a non-default eps (the spec: 'eps is both norms' epsilon') is half ignored; the visible tests use the default; input: the visible block's weights, x = randn(1, 6, 16), eps = 0.5 -> out differs from the key's (max abs diff ~0.55)
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    h_in = rms_norm(x, p["attn_norm"], eps)
    attended, cache = grouped_query_attention(h_in, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base)
    h = x + attended
    return h + swiglu(rms_norm(h, p["ffn_norm"]), p["W_gate"], p["W_up"], p["W_down"]), cache
