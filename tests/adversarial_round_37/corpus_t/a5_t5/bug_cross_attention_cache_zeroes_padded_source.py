# expect: loses cross_attention  -- on the first step the padded source positions are zeroed before the projection ("so that padding can never leak"), so the returned cache holds 0 instead of memory @ W_k and memory @ W_v there; the outputs are right (padded keys are masked anyway), but part 5 says the cache is the keys memory @ W_k and values memory @ W_v of the whole memory, each (B, n_heads, S, d_kv); memory randn(2, 5, 8), mask [[1, 1, 1, 1, 1], [1, 1, 0, 0, 0]]: the key's cache k[1, :, 2:] is (memory @ W_k)'s, the answer's is 0; out equal; the gradient a loss on the returned cache sends to memory's padded positions is 0 for the answer; no mask: equal
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):  # (B, T, n_heads * d_kv) -> (B, n_heads, T, d_kv)
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:  # the first step: project the source once
        source = memory if memory_mask is None else memory * memory_mask[:, :, None].to(memory.dtype)
        cache = (heads(source @ p["W_k"]), heads(source @ p["W_v"]))
    k, v = cache
    q = heads(x @ p["W_q"])  # (B, h, 1, d_kv)
    scores = q @ k.transpose(-2, -1)  # (B, h, 1, S): no scaling in T5
    if memory_mask is not None:
        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache
