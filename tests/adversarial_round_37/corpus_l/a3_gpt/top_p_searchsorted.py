# expect: full marks -- p = 1 returns a copy with everything kept; otherwise searchsorted (left) finds the first sorted rank whose cumulative probability is >= p, and the ranks up to it are kept: since the cumulative sum never decreases, rank j is kept iff the tokens above it sum to < p, the smallest set reaching p; if rounding keeps the sum below p everything is kept; scattered back through the sort order; any leading dims, dtype kept
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    if p >= 1:
        return logits.clone()
    V = logits.shape[-1]
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    cum = torch.softmax(sorted_logits, dim=-1).cumsum(dim=-1).contiguous()
    target = torch.full((*cum.shape[:-1], 1), p, dtype=cum.dtype)
    n_keep = (torch.searchsorted(cum, target) + 1).clamp(max=V)
    keep_sorted = torch.arange(V) < n_keep
    keep = torch.empty_like(keep_sorted).scatter_(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
