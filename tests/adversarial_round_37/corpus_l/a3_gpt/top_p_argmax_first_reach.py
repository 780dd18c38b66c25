# expect: loses top_p -- the set size is found as argmax(cumsum >= p) + 1, the first rank where the sorted cumulative probability reaches p; at p = 1 the float32 cumulative sum often never reaches 1.0 (it ends at 0.99999994 or so), the row (cumsum >= 1) is all False, argmax of an all-False row is 0, and only the single most likely token is kept; breaks "p = 1 keeps every token"; input: torch.manual_seed(1); z = torch.randn(1000) (float32; its sorted softmax cumsum ends at 0.99999994), top_p_filter(z, 1.0) -> keeps 1 token (spec: all 1000)
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    cum = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    n_keep = (cum >= p).int().argmax(dim=-1, keepdim=True) + 1  # the first rank at which the set reaches p
    keep_sorted = torch.arange(logits.shape[-1]) < n_keep
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
