# expect: loses top_k -- to save memory the filter writes -inf into the caller's logits in place (masked_fill_) whenever they do not require grad (it copies only when autograd needs the original); "it changes none of its arguments in place"; z = [[1., 5., 3., 4.]], k 2: after the call the key leaves z as it was, this answer leaves z = [[-inf, 5, -inf, 4]] (the returned values are right, and the visible test never reads z again)
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = logits.topk(k, dim=-1).values[..., -1:]
    drop = logits < kth
    if logits.requires_grad:
        return logits.masked_fill(drop, float("-inf"))
    return logits.masked_fill_(drop, float("-inf"))  # no graph to keep: reuse the buffer
