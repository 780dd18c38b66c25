# expect: loses pooled_head -- compares the pooling name with `is` instead of ==, which works only when the argument is the same (interned) string object as the literal: a "mean" built at run time (read from a config, "".join, .lower()) raises ValueError; spec: "Three poolings are common: "cls" ..., "mean" ..., "last" ... Any other pooling raises ValueError"
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)  # (B, T, 1)
    if pooling is "cls":
        pooled = hidden[:, 0]
    elif pooling is "mean":
        pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1)
    elif pooling is "last":
        pooled = hidden[torch.arange(hidden.shape[0]), attention_mask.sum(dim=1) - 1]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return pooled @ weight.T + bias
