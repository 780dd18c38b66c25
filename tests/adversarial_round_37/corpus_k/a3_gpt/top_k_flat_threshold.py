# expect: loses top_k -- the k-th largest is taken over the whole flattened tensor, not per row: right for a single row, wrong for (B, V) with B >= 2 (e.g. rows [1, 5, 3, 4] and [0, 0.5, 0.2, 0.1] with k=2: the second row loses everything)
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = torch.topk(logits.reshape(-1), k).values[-1]  # the k-th largest logit
    return torch.where(logits >= kth, logits, torch.full_like(logits, float("-inf")))
