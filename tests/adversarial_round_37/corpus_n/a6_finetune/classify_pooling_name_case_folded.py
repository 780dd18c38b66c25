# expect: loses pooled_head -- normalises the pooling name with .strip().lower() before dispatching ('be lenient with user input'), so "CLS", "Mean " or "LAST" are accepted and pooled instead of raising; the visible tests pass the exact names and "max", and pass; breaks 'Any other pooling raises ValueError' (the three poolings are the strings "cls", "mean" and "last"); input: classify(hidden, mask, eye(3), zeros(3), "MEAN") -> logits (key: ValueError)
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    pooling = pooling.strip().lower()  # "CLS", " mean" ... all mean the same pooling
    mask = attention_mask.to(hidden.dtype).unsqueeze(-1)
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        pooled = (hidden * mask).sum(1) / mask.sum(1)
    elif pooling == "last":
        pooled = hidden[torch.arange(hidden.shape[0]), attention_mask.sum(1) - 1]
    else:
        raise ValueError(f"unknown pooling {pooling!r}: 'cls', 'mean' or 'last'")
    return pooled @ weight.T + bias
