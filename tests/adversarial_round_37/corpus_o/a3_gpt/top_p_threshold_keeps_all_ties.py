# expect: loses top_p — finds the probability of the last token the nucleus needs and keeps every token at least that likely, so tokens tied with it are all kept, where the spec keeps 'as many of them as the smallest set needs ... the set's size is what is graded'; input: logits = zeros(1, 4) (four tokens at 0.25), p = 0.5 -> file keeps 4, key keeps 2
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, _ = torch.sort(probs, dim=-1, descending=True)
    before = torch.cumsum(sorted_probs, dim=-1) - sorted_probs
    needed = (before < p) | (p >= 1)  # the ranks the nucleus needs
    n_needed = needed.sum(dim=-1, keepdim=True)  # >= 1
    cutoff = sorted_probs.gather(-1, n_needed - 1)  # probability of the last token needed
    return logits.masked_fill(probs < cutoff, float("-inf"))
