# expect: loses cross_attention -- projects memory into the cached keys and values under torch.no_grad() ('computed once and kept: the cache is not trained'), so every value is exact and the visible tests pass, but no gradient reaches memory, W_k or W_v (T5 trained with this step would never train its cross-attention keys/values or its encoder); breaks the hidden-tests line 'gradients flow back to x, memory and every tensor of p'; input: cross_attention_weights(8, 6, 2), memory randn(2, 5, 8), x randn(2, 1, 8), first step, backward of out -> memory.grad, W_k.grad and W_v.grad are None (key: nonzero)
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):  # (B, T, n_heads * d_kv) -> (B, n_heads, T, d_kv)
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:
        with torch.no_grad():  # computed once and kept for every step: a cache is not trained
            cache = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
    k, v = cache
    q = heads(x @ p["W_q"])
    scores = q @ k.transpose(-2, -1)  # T5 does not scale
    if memory_mask is not None:
        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache
