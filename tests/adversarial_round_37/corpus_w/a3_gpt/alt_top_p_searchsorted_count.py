# expect: full marks -- sorts each row, takes the probability mass ranked above each token (an exclusive cumulative sum), and counts with searchsorted how many tokens have less than p above them: that count is the smallest set reaching p (at least 1, the most likely token); p = 1 keeps the whole row; the kept tokens are the first `count` of the descending order, put back by scatter; logits of either float dtype
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    if p >= 1:
        return logits.clone()
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    above = F.pad(torch.cumsum(probs, dim=-1)[..., :-1], (1, 0))  # mass ranked above each token
    target = torch.full(above.shape[:-1] + (1,), p, dtype=above.dtype)
    count = torch.searchsorted(above.contiguous(), target, right=False)  # tokens with above < p
    rank = torch.arange(logits.shape[-1]).expand(above.shape)
    keep_sorted = rank < count
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
