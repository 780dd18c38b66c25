# expect: loses top_k -- a fast path for k == 1 keeps only the argmax's token, so a logit tied with the largest is dropped (the spec keeps ties with the k-th): logits [[3, 1, 3]], k = 1 -> the key keeps tokens 0 and 2, the answer token 0 only; any k >= 2, and k = 1 without a tie at the top, agree
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    if k == 1:  # greedy: only the best token survives
        best = logits.argmax(dim=-1, keepdim=True)
        keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, best, True)
        return logits.masked_fill(~keep, float("-inf"))
    kth = torch.topk(logits, k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < kth, float("-inf"))
