# expect: full marks -- "last" found with argmin over a padded-with-zero mask, "mean" via einsum with a masked weight matrix, head via F.linear
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    B = hidden.shape[0]
    if pooling == "cls":
        pooled = hidden.select(1, 0)
    elif pooling == "mean":
        w = attention_mask.to(hidden.dtype)
        w = w / w.sum(dim=1, keepdim=True)  # (B, T): 1/n at the real tokens, 0 at the padding
        pooled = torch.einsum("bt,btd->bd", w, hidden)
    elif pooling == "last":
        # the first padding position, with a 0 appended so that a row without padding finds T
        first_pad = F.pad(attention_mask, (0, 1), value=0).argmin(dim=1)
        pooled = hidden[torch.arange(B), first_pad - 1]
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    return F.linear(pooled, weight, bias)
