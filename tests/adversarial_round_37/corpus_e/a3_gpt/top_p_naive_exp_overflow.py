# expect: loses top_p -- the probabilities as exp(z) / sum(exp(z)) without subtracting the maximum: a row with a logit above ~88.7 (float32) overflows, its probabilities are NaN, no comparison with p is True and the whole row is kept; spec: "Keep, in each row, the **smallest** set of most likely tokens whose probabilities (softmax of the row) sum to at least `p`; set every other logit to `-inf`"
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    e = sorted_logits.exp()
    probs = e / e.sum(dim=-1, keepdim=True)  # softmax of the row
    before = F.pad(torch.cumsum(probs, dim=-1)[..., :-1], (1, 0))  # probability of the tokens ranked above each one
    drop_sorted = before >= p  # the set above it already reaches p
    drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)  # back to vocabulary order
    return logits.masked_fill(drop, float("-inf"))
