# expect: loses block -- adds the feed-forward's output into h in place (h += ...) to save a tensor; the values are right, but h was saved by rms_norm(h) for its backward, so any backward through the block raises "one of the variables needed for gradient computation has been modified by an inplace operation". Breaks "gradients flow back to x, every tensor of p and every tensor of cache"; input: the visible test's p (d=16, h=4, h_kv=1, d_ff=24), x = randn(1, 6, 16) requiring grad, out.sum().backward() -> key: x.grad finite (1, 6, 16); this answer: RuntimeError
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended  # a new tensor: x itself is left alone
    h += swiglu(rms_norm(h, p["ffn_norm"], eps), p["W_gate"], p["W_up"], p["W_down"])  # the residual stream, updated in place
    return h, cache
