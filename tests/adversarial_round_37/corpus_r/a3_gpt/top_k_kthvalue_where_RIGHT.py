# expect: full marks -- style: the k-th largest as torch.kthvalue's (V - k + 1)-th smallest, the filter by torch.where against a -inf scalar tensor
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    V = logits.shape[-1]
    kth = torch.kthvalue(logits, V - k + 1, dim=-1, keepdim=True).values  # (..., 1)
    return torch.where(logits >= kth, logits, logits.new_tensor(float("-inf")))
