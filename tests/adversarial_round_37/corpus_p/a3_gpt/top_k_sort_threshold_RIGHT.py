# expect: full marks -- sorts each row in descending order, reads the k-th value as the threshold, and keeps everything at or above it with torch.where against a -inf tensor of the logits' dtype
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    ordered = torch.sort(logits, dim=-1, descending=True).values
    threshold = ordered[..., k - 1 : k]  # (..., 1): the k-th largest value
    minus_inf = torch.full_like(logits, float("-inf"))
    return torch.where(logits >= threshold, logits, minus_inf)
