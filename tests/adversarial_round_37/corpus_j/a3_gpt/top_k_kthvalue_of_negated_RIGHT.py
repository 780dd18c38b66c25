# expect: full marks -- the k-th largest found as minus the k-th smallest of -logits (torch.kthvalue), kept with torch.where
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth_largest = -torch.kthvalue(-logits, k, dim=-1, keepdim=True).values
    return torch.where(logits >= kth_largest, logits, logits.new_tensor(float("-inf")))
