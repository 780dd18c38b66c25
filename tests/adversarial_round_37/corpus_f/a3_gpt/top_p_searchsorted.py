# expect: loses top_p -- relabelled at corpus G: right under the spec of its time, but at p = 1 its float32 cumulative sum reaches 1 early and drops the tail, which the spec now forbids (was: finds with searchsorted the first rank whose cumulative probability reaches p and keeps every rank up to it (the same set as "drop where the mass above already reaches p", and the top token is always kept), then scatters the decision back to vocabulary order)
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    last_kept = torch.searchsorted(cumulative, torch.full_like(cumulative[..., :1], p))  # first rank reaching p
    rank = torch.arange(logits.shape[-1], device=logits.device)
    drop_sorted = rank > last_kept
    drop = torch.empty_like(drop_sorted).scatter(-1, order, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))
