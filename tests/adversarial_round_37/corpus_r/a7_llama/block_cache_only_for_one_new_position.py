# expect: loses block -- passes the cache on only when x holds one position, treating any longer x as a fresh prompt (decoding assumed to go one token at a time): with a cache and T > 1 (a prompt fed in chunks) the new positions ignore the cached ones and the cache is not grown; "cache is part 4's. ... Return (out (B, T, d), cache) with the grown cache"; d 16, h 4, h_kv 2, d_ff 24, gains 1 + 0.1 randn, x randn(2, 7, 16), cache from x[:, :3], then x[:, 3:]: max abs diff 2.69 and a cache of 4 positions where the key's has 7; whole sequence, or one position at a time: equal
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    prompt = x.shape[1] > 1  # several positions: a prompt, which starts a sequence; one: a decoding step
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads,
        cache=None if prompt else cache, base=base,
    )
    h = x + attended
    return h + swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"]), cache
