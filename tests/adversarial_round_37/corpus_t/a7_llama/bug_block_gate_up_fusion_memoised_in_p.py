# expect: loses block  -- the gate and up projections are fused once and the fused matrix memoised in the caller's dict (p["W_gate_up"] = torch.cat([W_gate, W_up], 1)): p is changed, and a later call with the same dict whose W_gate or W_up was replaced or changed in place (or a first call made under no_grad, which keeps a copy without a graph) uses the stale fusion; the release says a function changes none of its arguments and gradients flow to every tensor of p; call llama_block(x, p, 4, 1), then p["W_up"] = 2 * p["W_up"] and call again: the key's output moves (max abs diff 2.1 at the visible test's sizes, d 16, 4 heads, 1 kv head), the answer's does not move at all and p has gained a key; first call under torch.no_grad(), second with grad: the answer's W_gate.grad and W_up.grad stay None
# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    attended, cache = grouped_query_attention(
        rms_norm(x, p["attn_norm"], eps), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    if "W_gate_up" not in p:  # one matmul for both input projections of the feed-forward, fused once
        p["W_gate_up"] = torch.cat([p["W_gate"], p["W_up"]], dim=1)
    gate, up = (rms_norm(h, p["ffn_norm"], eps) @ p["W_gate_up"]).chunk(2, dim=-1)
    return h + (F.silu(gate) * up) @ p["W_down"], cache
