# expect: full marks -- "last" as the first position where the running count of real tokens reaches its maximum (cumsum, then argmax, which returns the first maximum), gathered; "mean" by einsum; the head by F.linear
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        real = attention_mask.to(hidden.dtype)
        pooled = torch.einsum("btd,bt->bd", hidden, real) / real.sum(dim=1, keepdim=True)
    elif pooling == "last":
        last = attention_mask.cumsum(dim=1).argmax(dim=1)  # (B,): the last real token under right padding
        pooled = hidden.gather(1, last[:, None, None].expand(-1, 1, hidden.shape[-1])).squeeze(1)
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return F.linear(pooled, weight, bias)
