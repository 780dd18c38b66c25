# expect: full marks -- when k >= V there is nothing to filter and it returns the logits tensor itself (the same object; the spec promises no new tensor for this part and nothing is modified in place); otherwise the k-th largest value from a descending sort and torch.where(logits >= kth, logits, -inf), which keeps ties with the k-th; same values and dtypes as the key for every k in 1..V, ties, none/one/several leading dims, float32/float64, non-contiguous rows
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    if k >= logits.shape[-1]:  # every logit is among the top V: nothing to filter
        return logits
    kth = logits.sort(dim=-1, descending=True).values[..., k - 1 : k]  # (..., 1)
    return torch.where(logits >= kth, logits, torch.full_like(logits, float("-inf")))
