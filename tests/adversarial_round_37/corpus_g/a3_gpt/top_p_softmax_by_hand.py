# expect: loses top_p -- probabilities as exp(z)/sum(exp(z)) without subtracting the max: logits above ~88 give inf/inf = NaN, nothing compares >= p and no token is dropped
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    e = sorted_logits.exp()
    probs = e / e.sum(dim=-1, keepdim=True)
    cum = probs.cumsum(dim=-1)
    drop_sorted = (cum - probs) >= p  # the tokens ranked above already reach p
    drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))
