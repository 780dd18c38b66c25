# expect: loses pooled_head -- the pooling name is normalised (strip().lower()) before it is matched, so "CLS", "Mean", " last" are accepted where the spec says any other pooling raises ValueError; "max", "", "first" still raise, and the three exact names agree with the key
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    how = pooling.strip().lower() if isinstance(pooling, str) else pooling
    real = attention_mask.to(hidden.dtype).unsqueeze(-1)
    if how == "cls":
        pooled = hidden[:, 0]
    elif how == "mean":
        pooled = (hidden * real).sum(1) / real.sum(1)
    elif how == "last":
        pooled = hidden[torch.arange(hidden.shape[0]), attention_mask.sum(1) - 1]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return pooled @ weight.T + bias
