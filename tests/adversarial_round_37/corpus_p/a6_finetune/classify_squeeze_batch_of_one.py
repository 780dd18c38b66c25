# expect: loses pooled_head -- pools with .squeeze() to drop the singleton axis of a (B, 1, d) slice or gather: with a batch of one, squeeze() also drops B, and "cls" and "last" return logits (C,) instead of (1, C) ("mean" survives only because its division broadcasts the axis back). Breaks "Return the logits (B, C)" (a batch of one is a batch the part allows); input: hidden = randn(1, 4, 3), attention_mask = [[1, 1, 1, 0]], weight randn(2, 3), bias randn(2), pooling "cls" or "last" -> key shape (1, 2), this answer shape (2,) (same numbers); with B = 3 it equals the key
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling == "cls":
        pooled = hidden[:, :1].squeeze()  # (B, d)
    elif pooling == "mean":
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)  # (B, T, 1)
        pooled = (hidden * mask).sum(1).squeeze() / mask.sum(1)
    elif pooling == "last":
        index = (attention_mask.sum(1) - 1).view(-1, 1, 1).expand(-1, 1, hidden.shape[-1])
        pooled = hidden.gather(1, index).squeeze()  # (B, d)
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return pooled @ weight.T + bias
