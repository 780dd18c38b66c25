# expect: full marks (the size of the kept set counted with torch.searchsorted on the sorted cumulative sum (the first rank whose sum reaches p, plus one), p = 1 keeping the whole row, the kept ranks scattered back to vocabulary order)
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    V = logits.shape[-1]
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    cumulative = torch.cumsum(torch.softmax(sorted_logits, dim=-1), dim=-1)  # (..., V), contiguous
    target = torch.full((*cumulative.shape[:-1], 1), p, dtype=cumulative.dtype)
    n_keep = torch.searchsorted(cumulative, target) + 1  # (..., 1): ranks 0 .. first one reaching p
    if p >= 1:
        n_keep = torch.full_like(n_keep, V)  # only the whole row has probability 1
    keep_sorted = torch.arange(V) < n_keep.clamp(max=V)
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
