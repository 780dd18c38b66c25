# expect: full marks -- sorts ascending (most likely last) and gets, for each token, the probability of all MORE likely tokens as an exclusive cumulative sum taken from the top (flip, cumsum, shift by one, flip back); keeps a token while that is < p, and p >= 1 keeps everything: the smallest set whose probability reaches p, most likely always kept
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    if p >= 1:
        return logits.clone()  # only the whole vocabulary has probability 1
    sorted_logits, order = torch.sort(logits, dim=-1)  # ascending: the most likely last
    top_first = torch.softmax(sorted_logits.flip(-1), dim=-1)  # most likely first
    above = torch.cat([torch.zeros_like(top_first[..., :1]), torch.cumsum(top_first, dim=-1)[..., :-1]], dim=-1)
    keep_sorted = (above < p).flip(-1)  # back to ascending order
    keep = torch.empty_like(keep_sorted).scatter_(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
