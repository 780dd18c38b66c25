# expect: full marks -- the softmax and the cumulative sum taken in float64 whatever the logits' dtype (closer to the exact sums the spec defines), the kept set marked by an exclusive cumulative sum below p, scattered back, logits returned in their own dtype
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    if p >= 1:
        return logits.clone()
    sorted_logits, order = torch.sort(logits.double(), dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    total = torch.cumsum(probs, dim=-1)
    above = torch.cat([torch.zeros_like(total[..., :1]), total[..., :-1]], dim=-1)  # mass of the tokens ranked above each one
    keep_sorted = above < p
    keep_sorted[..., 0] = True
    keep = torch.empty_like(keep_sorted).scatter_(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
