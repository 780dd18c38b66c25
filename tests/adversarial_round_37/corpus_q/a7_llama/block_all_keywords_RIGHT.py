# expect: full marks -- style: every call by keyword in an unusual order (base before cache, weights by name), the weights unpacked from p by a comprehension, the residuals written as torch.add
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    W = {name: p[name] for name in ("W_q", "W_k", "W_v", "W_o", "W_gate", "W_up", "W_down")}
    attended, grown = grouped_query_attention(
        base=base, cache=cache, n_kv_heads=n_kv_heads, n_heads=n_heads,
        W_o=W["W_o"], W_v=W["W_v"], W_k=W["W_k"], W_q=W["W_q"],
        x=rms_norm(eps=eps, gain=p["attn_norm"], x=x),
    )
    h = torch.add(x, attended)
    ffn = swiglu(W_down=W["W_down"], W_up=W["W_up"], W_gate=W["W_gate"], x=rms_norm(gain=p["ffn_norm"], x=h, eps=eps))
    return torch.add(h, ffn), grown
