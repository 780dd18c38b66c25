# expect: loses top_k -- keeps logits strictly above the (V-k)-th smallest via kthvalue: k = V (keep everything) calls kthvalue(0) and raises, and a tie at the boundary is dropped
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    V = logits.shape[-1]
    below = torch.kthvalue(logits, V - k, dim=-1, keepdim=True).values  # the largest logit that is not kept
    return torch.where(logits > below, logits, torch.full_like(logits, float("-inf")))
