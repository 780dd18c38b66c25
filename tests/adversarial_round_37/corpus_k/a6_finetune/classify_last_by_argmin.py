# expect: full marks -- "last" reads position attention_mask.argmin(1) - 1: argmin returns the FIRST 0 (the first padding; torch documents the first minimal index), minus 1 is the last real token; a row without padding has argmin 0, and index -1 is its last position; "mean" uses masked_fill + sum / count
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    rows = torch.arange(hidden.shape[0])
    if pooling == "cls":
        pooled = hidden[:, 0, :]
    elif pooling == "mean":
        real = attention_mask.bool().unsqueeze(-1)
        pooled = hidden.masked_fill(~real, 0.0).sum(dim=1) / real.sum(dim=1)
    elif pooling == "last":
        pooled = hidden[rows, attention_mask.argmin(dim=1) - 1]
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return F.linear(pooled, weight, bias)
