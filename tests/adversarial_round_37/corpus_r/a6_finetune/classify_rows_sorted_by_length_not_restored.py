# expect: loses pooled_head -- rows sorted by length (argsort) to pool each length as one dense slice, then put back with pooled[order] instead of pooled[order.argsort()]: right whenever the sorting permutation is its own inverse (every batch of 1 or 2, and the visible batch of 3 with lengths 7, 4, 2), wrong otherwise; "Return the logits (B, C)" row by row; hidden arange(36.).view(3, 4, 3), mask [[1,1,0,0],[1,1,1,0],[1,0,0,0]], identity head, "cls": key [[0,1,2],[12,13,14],[24,25,26]], this answer [[12,13,14],[24,25,26],[0,1,2]] (mean and last likewise); lengths 4, 2, 1: equal
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling not in ("cls", "mean", "last"):
        raise ValueError(f"unknown pooling {pooling!r}: 'cls', 'mean' or 'last'")
    lengths = attention_mask.long().sum(1)  # right padding: each row's real tokens are its first `length`
    order = torch.argsort(lengths, stable=True)  # rows of equal length side by side: one dense slice each
    sorted_hidden, sorted_lengths = hidden[order], lengths[order]
    pooled = []
    for L in torch.unique_consecutive(sorted_lengths).tolist():
        rows = sorted_hidden[sorted_lengths == L]  # (n, T, d), every row L real tokens
        if pooling == "cls":
            pooled.append(rows[:, 0])
        elif pooling == "mean":
            pooled.append(rows[:, :L].mean(1))
        else:
            pooled.append(rows[:, L - 1])
    pooled = torch.cat(pooled)[order]  # back to the batch's order
    return pooled @ weight.T + bias
