# expect: full marks -- "last" as the position before the first padding, attention_mask.argmin(1) - 1, which is -1 (the last position) for a row without padding since argmin returns the first of the equal minima; "mean" through masked_fill and a division by the count; F.linear for the head; spec: "`"last"`: the hidden state of the **last real token**" and "The batch is padded **on the right** ... every row has at least one real token"
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling not in ("cls", "mean", "last"):
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    B = hidden.shape[0]
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        real = attention_mask.bool().unsqueeze(-1)  # (B, T, 1)
        pooled = hidden.masked_fill(~real, 0.0).sum(dim=1) / real.sum(dim=1).to(hidden.dtype)
    else:
        last = attention_mask.argmin(dim=1) - 1  # before the first 0; -1 (the end) if there is none
        pooled = hidden[torch.arange(B), last]
    return F.linear(pooled, weight, bias)
