# expect: loses block -- the rotary base is passed to the attention only on the first call (cache None); a call with a cache falls back to the default 10,000: with base 500, the prefill agrees with the key and every later step rotates its queries and new keys with the wrong frequencies (outputs differ by ~0.1); with base 10,000 (int or float), every call agrees
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    h_in = rms_norm(x, p["attn_norm"], eps)
    if cache is None:  # prefill: the whole prompt at once
        attended, cache = grouped_query_attention(h_in, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, None, base)
    else:  # decoding: extend the cache
        attended, cache = grouped_query_attention(h_in, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache=cache)
    h = x + attended
    return h + swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]), cache
