# expect: loses pooled_head -- the pooling name normalised with `.strip().lower()` before it is read, so "CLS", "Mean", " last" are accepted where the spec says "Any other pooling raises ValueError" (the names are "cls", "mean", "last"); classify(hidden, mask, W, b, "Mean"): key ValueError, answer the mean pooling's logits; "max" and the three names: equal
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    name = pooling.strip().lower()
    mask = attention_mask.to(hidden.dtype).unsqueeze(-1)
    if name == "cls":
        pooled = hidden[:, 0]
    elif name == "mean":
        pooled = (hidden * mask).sum(1) / mask.sum(1)
    elif name == "last":
        pooled = hidden[torch.arange(hidden.shape[0]), attention_mask.sum(1) - 1]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return pooled @ weight.T + bias
