# expect: loses top_p -- a rounding guard `before >= p - 1e-6` ("the set above this token already reaches p, up to float error") drops a token when the tokens above it sum to just UNDER p, so the kept set's probability can fall short of p; the visible probabilities have wide margins; breaks "Keep, in each row, the smallest set of most likely tokens whose probabilities (softmax of the row) sum to at least p"; input: top_p_filter(torch.tensor([0.4999995, 0.3, 0.2000005], dtype=torch.float64).log(), 0.5) -> keeps 1 token of probability 0.4999995 < p (spec: 2 tokens)
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    cum = torch.softmax(sorted_logits, dim=-1).cumsum(dim=-1)
    before = cum - torch.softmax(sorted_logits, dim=-1)  # probability of the tokens ranked above
    drop_sorted = (before >= p - 1e-6) & (p < 1)  # tolerate float error in the cumulative sum
    drop = drop_sorted.scatter(-1, order, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))
