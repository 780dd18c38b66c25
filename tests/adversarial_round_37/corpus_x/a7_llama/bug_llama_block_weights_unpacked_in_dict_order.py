# expect: loses block -- "`p` is a dict of the block's weights: `attn_norm` and `ffn_norm` (d,), `W_q`, `W_k`, `W_v`, `W_o` as in part 4, and `W_gate`, `W_up`, `W_down` as in part 3": the block unpacks `p.values()` in the order the visible tests write the dict (norms, attention, feed-forward), which `dict(p, W_o=..., W_down=...)` keeps; the same weights in another order (sorted names, a checkpoint's per-layer order, Hugging Face's q, k, v, o, gate, up, down, then the norms) go to the wrong places or fail to unpack, and W_gate and W_up, of one shape, are silently exchanged when only those two are swapped
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attn_norm, ffn_norm, W_q, W_k, W_v, W_o, W_gate, W_up, W_down = p.values()
    attended, cache = grouped_query_attention(rms_norm(x, attn_norm, eps), W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache, base)
    h = x + attended
    return h + swiglu(rms_norm(h, ffn_norm, eps), W_gate, W_up, W_down), cache
