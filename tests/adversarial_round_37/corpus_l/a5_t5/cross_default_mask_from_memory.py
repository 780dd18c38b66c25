# expect: loses cross_attention -- without a memory_mask the student builds an all-ones mask from memory.shape on every step, so later steps still read memory (its shape), which the spec says may be a different tensor then; with a memory of another length, or none, the later step fails; breaks "On later steps cache is the (k, v) you returned: use it, do not project memory again (it is passed, but the tests may pass a different tensor there: reading it would be a bug)"; input: step 1 with memory (2, 5, 8), then a later step with cache and memory = torch.empty(0) -> IndexError/RuntimeError (spec: the same output as with the real memory)
# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads
    if memory_mask is None:
        memory_mask = torch.ones(memory.shape[0], memory.shape[1], dtype=torch.long)  # nothing padded

    def heads(t):
        return t.reshape(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:
        cache = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
    k, v = cache
    scores = heads(x @ p["W_q"]) @ k.transpose(-2, -1)
    scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    out = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return out @ p["W_o"], cache
