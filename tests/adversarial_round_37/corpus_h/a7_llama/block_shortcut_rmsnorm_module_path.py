# expect: loses block -- forbidden shortcut in disguise: both norms are torch.nn.modules.normalization.RMSNorm (the class nn.RMSNorm, reached by its module path, without affine weights) times the gain; numerically equal to the key, so it is wrong by the rules only
# %% [block]
from torch.nn.modules.normalization import RMSNorm as _Norm


def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    norm = _Norm(x.shape[-1], eps=eps, elementwise_affine=False)
    attended, cache = grouped_query_attention(
        p["attn_norm"] * norm(x), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, n_kv_heads, cache, base
    )
    h = x + attended
    return h + swiglu(p["ffn_norm"] * norm(h), p["W_gate"], p["W_up"], p["W_down"]), cache
