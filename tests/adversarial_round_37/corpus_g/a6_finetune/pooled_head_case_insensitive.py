# expect: loses pooled_head -- lower-cases and strips the pooling name, so "CLS", "Mean " etc. are accepted where the spec says any other pooling raises ValueError
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    mode = pooling.strip().lower()
    real = attention_mask.unsqueeze(-1).to(hidden.dtype)
    if mode == "cls":
        pooled = hidden[:, 0, :]
    elif mode == "mean":
        pooled = (hidden * real).sum(dim=1) / real.sum(dim=1)
    elif mode == "last":
        pooled = hidden[torch.arange(len(hidden)), attention_mask.sum(dim=1) - 1]
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return pooled @ weight.T + bias
