# expect: loses top_p -- hand-written softmax normalises by the max and the sum of the WHOLE tensor (no dim), so for (B, V) with B >= 2 each row's probabilities sum to less than 1 and it keeps too many tokens (e.g. two identical rows of probabilities (0.5, 0.3, 0.15, 0.05), p = 0.5 keeps 2 per row instead of 1)
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    e = torch.exp(sorted_logits - sorted_logits.max())  # stable softmax
    probs = e / e.sum()
    before = torch.cumsum(probs, dim=-1) - probs  # probability of the tokens ranked above each one
    drop_sorted = (before >= p) & (p < 1)
    drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))
