# expect: loses cross_attention -- memoises the first step's projected keys and values in a module-level dict keyed by (memory.data_ptr(), shape, strides, dtype, W_k/W_v data_ptr, n_heads), so a later first step whose memory lies at the same address with other values (the caller's buffer refilled in place, or a new tensor the allocator puts where a freed one was) gets the old source's keys and values; the visible tests use distinct live tensors and pass; breaks 'On the first step cache is None: compute the keys memory @ W_k and values memory @ W_v'; input: first step on memory, then memory.copy_(randn_like(memory)) and a first step again -> the same output as before (key: a different output)
# %% [cross_attention]
_PROJECTED = {}  # the sources already projected: (where memory lies, its layout, the weights) -> (k, v)


def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):  # (B, T, n_heads * d_kv) -> (B, n_heads, T, d_kv)
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:  # the first step: each source is projected once, whoever asks
        key = (memory.data_ptr(), tuple(memory.shape), memory.stride(), memory.dtype,
               p["W_k"].data_ptr(), p["W_v"].data_ptr(), n_heads)
        if key not in _PROJECTED:
            _PROJECTED[key] = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
        cache = _PROJECTED[key]
    k, v = cache
    q = heads(x @ p["W_q"])  # (B, h, 1, d_kv)
    scores = q @ k.transpose(-2, -1)  # T5 does not scale
    if memory_mask is not None:
        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache
