# expect: loses top_k — the k-th largest value is read back as a Python float through a float32 tensor (torch.tensor(kth, dtype=torch.float32)) before the comparison, so for float64 logits the threshold is rounded and the k-th largest itself is dropped about half the time (or a smaller neighbour kept); breaks 'float32 and float64 inputs' / 'keep the k largest'; input: float64 logits = randn(50, 20, dtype=float64), k = 5 -> ~half the rows keep 4 logits instead of 5
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = torch.topk(logits, k, dim=-1).values[..., -1:]
    threshold = kth.to(torch.float32)  # a float32 threshold is plenty to compare logits against
    return torch.where(logits >= threshold, logits, torch.full_like(logits, float("-inf")))
