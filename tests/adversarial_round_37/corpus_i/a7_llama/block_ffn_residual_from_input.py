# expect: loses block -- the feed-forward's residual is added to the block's input x instead of h = x + attention, so the attention's output never reaches the block's output: wrong whenever W_o != 0 (the visible test zeroes W_o and W_down together)
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attn, cache = grouped_query_attention(rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"],
                                          n_heads, n_kv_heads, cache, base)
    h = x + attn
    ffn = swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])
    return x + ffn, cache
