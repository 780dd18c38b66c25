# expect: loses pooled_head -- lower-cases the pooling name first, so "Mean" or "CLS" are accepted instead of raising ValueError (the spec: any other pooling raises): classify(h, mask, W, b, "Mean") returns logits
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    pooling = pooling.strip().lower()
    if pooling not in ("cls", "mean", "last"):
        raise ValueError(f"unknown pooling {pooling!r}")
    m = attention_mask.unsqueeze(-1).to(hidden.dtype)
    if pooling == "cls":
        pooled = hidden[:, 0, :]
    elif pooling == "mean":
        pooled = (hidden * m).sum(dim=1) / m.sum(dim=1)
    else:
        last = attention_mask.sum(dim=1) - 1
        pooled = hidden[torch.arange(hidden.size(0)), last]
    return F.linear(pooled, weight, bias)
