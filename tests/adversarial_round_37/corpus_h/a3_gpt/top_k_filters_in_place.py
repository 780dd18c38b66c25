# expect: loses top_k -- writes -inf into the caller's logits (logits[logits < kth] = -inf) and returns them: the returned values equal the key's and no visible check looks at z afterwards, but the input is changed (a sampler that reuses its logits, e.g. for top-k then top-p, sees them filtered), and logits that require grad raise; differs on any row with V > k, e.g. z = [[1., 5., 3., 4.]], k=2 (z afterwards [[-inf, 5, -inf, 4]])
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = logits.topk(k, dim=-1).values[..., -1:]  # (..., 1)
    logits[logits < kth] = float("-inf")
    return logits
