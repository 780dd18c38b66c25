# expect: loses top_p — drops every token whose preceding cumulative probability is >= p without the p = 1 guard, so with p = 1 a float32 cumulative sum that reaches 1.0 before the end drops the tail tokens (the spec: 'p = 1 keeps every token ... must not drop the tail'); input: logits = tensor([[30., 0., 0., 0.]]) float32, p = 1.0 -> file keeps 1 token, key keeps all 4
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    before = torch.cumsum(probs, dim=-1) - probs  # probability of the tokens ranked above each one
    drop_sorted = before >= p
    drop = drop_sorted.scatter(-1, order, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))
