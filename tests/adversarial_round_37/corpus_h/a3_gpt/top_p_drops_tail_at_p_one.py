# expect: loses top_p (subtle) -- drops a token when the probability ranked above it (cumsum - own probability) reaches p, with no guard for p = 1: when the float32 cumulative sum rounds to 1 before the tail, p = 1 drops tokens, which the spec explicitly forbids; e.g. top_p_filter(torch.tensor([[20., 0., 0., 0.]]), 1.0) keeps only the first token (the key keeps all four)
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs  # the probability ranked above each token
    drop_sorted = before >= p
    drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))
