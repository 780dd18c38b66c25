# expect: loses top_p -- lifts the logits with torch.atleast_2d to work on rows and never removes the axis again: a (V,) vector of logits (no leading dimension) comes back (1, V). Breaks "any number of leading dimensions (none, one or several)" and "set every other logit to -inf" in a tensor of the logits' shape (the visible tests use (1, V) only); input: logits = log([0.5, 0.05, 0.3, 0.15]) of shape (4,), p = 0.79 -> key shape (4,), this answer shape (1, 4) (same values)
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    rows = torch.atleast_2d(logits)  # (..., V) with at least one row axis
    sorted_logits, order = torch.sort(rows, dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    before = F.pad(torch.cumsum(probs, dim=-1)[..., :-1], (1, 0))
    drop_sorted = (before >= p) & (p < 1)
    drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
    return rows.masked_fill(drop, float("-inf"))
