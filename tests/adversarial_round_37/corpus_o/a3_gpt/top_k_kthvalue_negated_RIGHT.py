# expect: full marks — top_k: the k-th largest found as torch.kthvalue of the negated logits (the k-th smallest of -logits), ties kept by a >= comparison, -inf filled with torch.where
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = -torch.kthvalue(-logits, k, dim=-1, keepdim=True).values
    return torch.where(logits >= kth, logits, torch.tensor(float("-inf"), dtype=logits.dtype))
