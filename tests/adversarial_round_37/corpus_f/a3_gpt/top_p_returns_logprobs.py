# expect: loses top_p -- filters correctly but returns log-softmax values (shifted by the row's logsumexp) at the kept positions instead of the original logits; spec: "Keep, in each row, the smallest set of most likely tokens ...; set every other logit to -inf" (the kept logits are the row's own)
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    log_probs = torch.log_softmax(logits, dim=-1)
    sorted_lp, order = torch.sort(log_probs, dim=-1, descending=True)
    before = F.pad(sorted_lp.exp().cumsum(dim=-1)[..., :-1], (1, 0))  # mass of the tokens ranked above
    sorted_lp = sorted_lp.masked_fill(before >= p, float("-inf"))
    return torch.empty_like(sorted_lp).scatter(-1, order, sorted_lp)  # back to vocabulary order
