# expect: full marks -- style: "last" as attention_mask.argmin(1) - 1 (the first padding position minus one; a row without padding gives argmin 0, and index -1 wraps to its last token), "mean" by einsum with the mask, the head by F.linear
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    rows = torch.arange(hidden.shape[0])
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        mask = attention_mask.to(hidden.dtype)
        pooled = torch.einsum("bt,btd->bd", mask, hidden) / mask.sum(1, keepdim=True)
    elif pooling == "last":
        pooled = hidden[rows, attention_mask.argmin(dim=1) - 1]
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return F.linear(pooled, weight, bias)
