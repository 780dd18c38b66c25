# expect: loses cross_attention -- 'masks' the padding by zeroing the padded memory rows before projecting them, so their keys and values are 0 and each padded position still gets softmax weight exp(0)/Z; breaks 'the padded source positions masked out (weight exactly 0: their scores set to -inf ...)'; input: cross_attention_weights(8,6,2), memory randn(2,5,8), x randn(2,1,8), memory_mask [[1,1,1,1,1],[1,1,0,0,0]] -> row 1 differs from the key's (the visible test only checks that the padded rows' contents do not matter)
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):  # (B, T, n_heads * d_kv) -> (B, n_heads, T, d_kv)
        return t.view(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:  # the first step: the source is projected once
        if memory_mask is not None:
            memory = memory * memory_mask[:, :, None]  # padding contributes nothing
        cache = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
    k, v = cache
    q = heads(x @ p["W_q"])  # (B, h, 1, d_kv)
    scores = q @ k.transpose(-2, -1)  # (B, h, 1, S): T5 does not scale
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache
