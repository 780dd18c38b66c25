# expect: loses pooled_head -- the pooling name is normalised with .strip().lower() before it is compared, so "CLS", "Mean" or " last" are accepted instead of rejected; "Any other pooling raises ValueError" (the three poolings are "cls", "mean" and "last"); hidden randn(2,4,3), mask [[1,1,1,0],[1,0,0,0]], pooling "CLS": key raises ValueError, this answer returns the "cls" logits
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    kind = str(pooling).strip().lower()
    real = attention_mask.to(hidden.dtype)[..., None]
    if kind == "cls":
        pooled = hidden[:, 0, :]
    elif kind == "mean":
        pooled = (hidden * real).sum(dim=1) / real.sum(dim=1)
    elif kind == "last":
        idx = attention_mask.sum(dim=1).long() - 1
        pooled = hidden.gather(1, idx[:, None, None].expand(-1, 1, hidden.shape[-1])).squeeze(1)
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return pooled @ weight.T + bias
