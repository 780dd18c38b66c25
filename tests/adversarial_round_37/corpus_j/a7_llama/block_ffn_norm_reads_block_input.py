# expect: loses block -- the feed-forward normalises the block's input x instead of h = x + attention (a parallel GPT-J/PaLM block): p as in the visible test, x = randn(1, 6, 16) gives a different output
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    fed = swiglu(rms_norm(x, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])
    return x + attended + fed, cache
