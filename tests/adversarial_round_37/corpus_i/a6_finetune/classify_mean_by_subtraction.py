# expect: loses pooled_head -- "mean" as (sum of all positions - sum of the padded ones) / length: catastrophic cancellation when the padding holds large finite values, e.g. hidden[0, 3] = 1e8 in float32 with attention_mask [[1, 1, 1, 0], ...] (the visible 1000 is too small to show it)
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    lengths = attention_mask.sum(dim=1)  # (B,)
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        pad = (1 - attention_mask).unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden.sum(dim=1) - (hidden * pad).sum(dim=1)) / lengths.unsqueeze(-1).to(hidden.dtype)
    elif pooling == "last":
        pooled = hidden.gather(1, (lengths - 1).view(-1, 1, 1).expand(-1, 1, hidden.shape[-1])).squeeze(1)
    else:
        raise ValueError(pooling)
    return pooled @ weight.T + bias
