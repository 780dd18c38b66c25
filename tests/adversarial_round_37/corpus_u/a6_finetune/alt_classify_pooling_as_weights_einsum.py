# expect: full marks (every pooling as a (B, T) weight row, one-hot for "cls" and "last", mask / count for "mean", applied with one einsum; the padding's finite values get weight exactly 0)
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    B, T, _ = hidden.shape
    if pooling == "cls":
        w = F.one_hot(torch.zeros(B, dtype=torch.long), T)
    elif pooling == "mean":
        real = attention_mask.to(hidden.dtype)
        w = real / real.sum(dim=1, keepdim=True)
    elif pooling == "last":
        w = F.one_hot(attention_mask.long().sum(dim=1) - 1, T)
    else:
        raise ValueError(f"unknown pooling {pooling!r}: 'cls', 'mean' or 'last'")
    pooled = torch.einsum("bt,btd->bd", w.to(hidden.dtype), hidden)
    return pooled @ weight.T + bias
