# expect: loses cross_attention -- memoises the source projections by id(memory), ignoring p: a first step on the same memory tensor with other weights (a second layer, or new weights) reuses the first layer's keys and values
# %% [cross_attention]
_PROJECTED = {}  # id(memory) -> (memory, k, v): the encoder output is projected once


def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model)."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def split(t):
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:
        hit = _PROJECTED.get(id(memory))
        if hit is None or hit[0] is not memory:
            hit = (memory, split(memory @ p["W_k"]), split(memory @ p["W_v"]))
            _PROJECTED[id(memory)] = hit
        cache = hit[1:]
    k, v = cache
    scores = split(x @ p["W_q"]) @ k.transpose(-2, -1)
    if memory_mask is not None:
        scores = scores.masked_fill(~memory_mask.bool()[:, None, None, :], float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v
    return out.transpose(1, 2).reshape(B, 1, -1) @ p["W_o"], cache
