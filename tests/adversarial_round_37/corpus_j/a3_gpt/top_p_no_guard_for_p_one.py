# expect: loses top_p -- no special case for p = 1: in float32 the cumulative sum reaches 1.0 before the tail, so p = 1 drops tokens: logits [[0., -20., -30.]], p=1.0 keeps only token 0
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    probs = sorted_logits.softmax(dim=-1)
    mass_above = probs.cumsum(dim=-1) - probs  # probability of the tokens ranked above each one
    drop_sorted = mass_above >= p  # the tokens above already reach p
    drop = drop_sorted.scatter(-1, order, drop_sorted)  # back to vocabulary order
    return logits.masked_fill(drop, float("-inf"))
