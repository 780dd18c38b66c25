# expect: 12/12 (the answer key, but sdpa also keeps, for debugging, a float64 copy of every score tensor it computed in the last 8 calls: correct, wasteful, a few hundred MB at most on the hidden cases, far inside the 6 GiB limit)
# %% [sdpa]
_history = []


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., T_q, T_k)
    _history.append(scores.detach().to(torch.float64))
    del _history[:-8]
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        has_key = mask.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights
