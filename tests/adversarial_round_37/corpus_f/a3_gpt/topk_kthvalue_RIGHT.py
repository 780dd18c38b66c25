# expect: full marks -- the k-th largest of V values is the (V - k + 1)-th smallest, which torch.kthvalue returns along the last axis; everything below it becomes -inf, so ties with it are kept and kept logits are unchanged
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    V = logits.shape[-1]
    threshold = torch.kthvalue(logits, V - k + 1, dim=-1, keepdim=True).values
    return torch.where(logits >= threshold, logits, logits.new_full((), float("-inf")))
