# expect: loses top_p -- Hugging Face's ascending rule (drop where the cumulative sum from the least likely <= 1 - p): at p = 1 it drops every token whose probability underflows to 0: logits [[0., -200., 1.]], p=1.0 drops token 1
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=False)  # least likely first
    cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    remove_sorted = cumulative <= (1 - p)  # the least likely tokens whose total is at most 1 - p
    remove_sorted[..., -1:] = False  # the most likely token is always kept
    remove = remove_sorted.scatter(-1, order, remove_sorted)
    return logits.masked_fill(remove, float("-inf"))
