# expect: loses pooled_head ("mean" pooling as (sum over all positions - sum over the padding) / n: catastrophic cancellation when the padding holds large finite values, which the spec allows: float32 hidden (2, 6, 4) randn with the padded positions 1e8 * randn: the answer's pooled rows are off by up to 14.9 from the float64 mean of the real tokens where the key is off by 6e-8; padding of ordinary size, integers below 2**24 (the visible test's 1000.0), "cls" and "last" agree)
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        padding = (attention_mask == 0).unsqueeze(-1).to(hidden.dtype)  # (B, T, 1)
        real = attention_mask.sum(1, keepdim=True).to(hidden.dtype)  # (B, 1)
        pooled = (hidden.sum(1) - (hidden * padding).sum(1)) / real  # everything, less what the padding holds
    elif pooling == "last":
        last = attention_mask.sum(1) - 1
        pooled = hidden[torch.arange(hidden.shape[0]), last]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return pooled @ weight.T + bias
