# expect: loses top_p -- indexes the cumulative sum with [:, :-1], i.e. assumes logits are exactly (B, V): a single row (V,) raises and (B, T, V) is cut along T; spec: "Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf"
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    cum = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    before = torch.cat([torch.zeros_like(cum[:, :1]), cum[:, :-1]], dim=-1)  # mass of the better tokens
    drop_sorted = before >= p
    drop = drop_sorted.scatter(-1, order, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))
