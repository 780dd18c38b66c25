# expect: full marks -- flattens to rows and walks each row's sorted cumulative probabilities in a Python loop, building a boolean keep mask; puts it back with torch.where
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    V = logits.shape[-1]
    rows = logits.reshape(-1, V)
    keep = torch.zeros(rows.shape, dtype=torch.bool)
    for r in range(rows.shape[0]):
        sorted_logits, order = torch.sort(rows[r], descending=True)
        cum = torch.cumsum(torch.softmax(sorted_logits, dim=-1), dim=-1)
        for j in range(V):
            if j > 0 and cum[j - 1] >= p:  # the tokens kept so far already reach p
                break
            keep[r, order[j]] = True
    keep = keep.reshape(logits.shape)
    return torch.where(keep, logits, torch.full_like(logits, float("-inf")))
