# expect: full marks -- calls the parts through functools.partial and keyword arguments only (weights unpacked from p by name, cache and base by keyword), torch.add for the residuals
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    from functools import partial

    norm = partial(rms_norm, eps=eps)
    attention = partial(
        grouped_query_attention,
        n_heads=n_heads,
        n_kv_heads=n_kv_heads,
        cache=cache,
        base=base,
        **{name: p[name] for name in ("W_q", "W_k", "W_v", "W_o")},
    )
    delta, new_cache = attention(norm(x, gain=p["attn_norm"]))
    h = torch.add(x, delta)
    ffn = swiglu(norm(h, gain=p["ffn_norm"]), W_gate=p["W_gate"], W_up=p["W_up"], W_down=p["W_down"])
    return torch.add(h, ffn), new_cache
