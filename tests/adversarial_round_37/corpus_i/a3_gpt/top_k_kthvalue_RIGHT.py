# expect: full marks -- the k-th largest as torch.kthvalue(logits, V - k + 1) (the (V-k+1)-th smallest), ties with it kept, -inf written with torch.where
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    V = logits.shape[-1]
    kth = torch.kthvalue(logits, V - k + 1, dim=-1, keepdim=True).values
    return torch.where(logits >= kth, logits, torch.full_like(logits, -math.inf))
