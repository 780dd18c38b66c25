# expect: loses top_p -- keeps every token whose probability is at least the last needed one's, so ties at the boundary are all kept (not the smallest set): logits = log([0.4, 0.3, 0.3]), p = 0.6 keeps 3 tokens instead of 2
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, _ = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs  # mass ranked above each sorted token
    needed = (before < p) | (p >= 1)  # sorted tokens we need; the first is always needed
    n_needed = needed.sum(dim=-1, keepdim=True)  # >= 1
    threshold = sorted_probs.gather(-1, n_needed - 1)  # probability of the last needed token
    return logits.masked_fill(probs < threshold, float("-inf"))
