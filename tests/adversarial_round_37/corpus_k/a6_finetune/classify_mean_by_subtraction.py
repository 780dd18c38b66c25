# expect: loses pooled_head -- "mean" sums all positions and subtracts the padding's sum, which cancels catastrophically when the padding holds large finite values (e.g. hidden[:, padding] = 1e8 in float32: the real tokens' sum is lost, pooled vector 0 or garbage), although the padding may hold "whatever the encoder wrote there (finite numbers)"
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)  # (B, T, 1)
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        padding_sum = (hidden * (1 - mask)).sum(dim=1)  # what the padding adds to the total
        pooled = (hidden.sum(dim=1) - padding_sum) / mask.sum(dim=1)
    elif pooling == "last":
        last = attention_mask.sum(dim=1) - 1
        pooled = hidden[torch.arange(hidden.shape[0]), last]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return pooled @ weight.T + bias
