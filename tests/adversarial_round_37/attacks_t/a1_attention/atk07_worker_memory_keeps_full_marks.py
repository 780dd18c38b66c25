# expect: 12/12 (every answer is the key's) and a neighbour graded after it 12/12; the trusted worker's memory should not be the student's to spend. Here sdpa, during its own visible tests (where the other parts are the grader's correct versions, run in the worker), calls the correct multi_head_attention once on 4 MB of inputs with 16,000 positions: the worker builds 16,000 x 16,000 scores and returns only (1, 16000, 64).
# %% [sdpa]
_BIG_DONE = []


def scaled_dot_product_attention(q, k, v, mask=None):
    if not _BIG_DONE and multi_head_attention is not _OWN_MHA[0]:  # the grader's proxy, during the visible tests
        _BIG_DONE.append(1)
        x = torch.zeros(1, 16000, 64)
        w = torch.eye(64)
        try:
            multi_head_attention(x, x, w, w, w, w, 1)
        except Exception as error:
            print("big call:", type(error).__name__, str(error)[:200])
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        has_key = mask.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights


_OWN_MHA = [None]
# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o


_OWN_MHA[0] = multi_head_attention
