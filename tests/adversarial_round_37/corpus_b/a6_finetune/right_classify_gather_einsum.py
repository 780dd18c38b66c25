# expect: full marks -- torch.gather for "last", einsum with the mask for "mean", select for "cls", einsum for the head; differentiable, keeps hidden's dtype
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling not in ("cls", "mean", "last"):
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    B, T, d = hidden.shape
    if pooling == "cls":
        pooled = hidden.select(1, 0)
    elif pooling == "mean":
        m = attention_mask.to(hidden.dtype)
        pooled = torch.einsum("btd,bt->bd", hidden, m) / m.sum(dim=1, keepdim=True)
    else:
        last = (attention_mask.long().sum(dim=1) - 1).view(B, 1, 1).expand(B, 1, d)
        pooled = torch.gather(hidden, 1, last).view(B, d)
    return torch.einsum("bd,cd->bc", pooled, weight) + bias
