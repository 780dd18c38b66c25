# expect: loses top_k -- keeps the tokens ranked < k by argsort, so a tie with the k-th largest is dropped: top_k_filter(tensor([[5., 4., 4., 1.]]), 2) keeps one 4 instead of both
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    rank = logits.argsort(dim=-1, descending=True).argsort(dim=-1)  # 0 for the largest
    return logits.masked_fill(rank >= k, float("-inf"))
