# expect: loses top_p -- right under the spec of its time; wrong under today's (since corpus g), which says p = 1 keeps every token: a float32 cumulative sum reaches 1 early and the loop stops there (8,393 of 50,000 tokens dropped)
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
