# expect: loses top_p -- counts how many tokens to keep over the whole batch at once (one number for all rows), which is right for a single row only; spec: "Keep, in each row, the **smallest** set of most likely tokens whose probabilities (softmax of the row) sum to at least `p`"
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    cum = torch.softmax(sorted_logits, dim=-1).cumsum(dim=-1)
    n_keep = int((cum < p).sum()) + 1  # the tokens below p, plus the one that reaches it
    keep_sorted = torch.arange(logits.shape[-1]) < n_keep
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, order, keep_sorted.expand_as(order))
    return logits.masked_fill(~keep, float("-inf"))
