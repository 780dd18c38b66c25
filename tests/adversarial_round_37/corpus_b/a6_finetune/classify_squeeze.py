# expect: loses pooled_head -- squeezes the pooled vectors, which also drops the batch axis when B = 1, so the logits are (C,) instead of (1, C); spec: "Return the logits (B, C)"
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
    if pooling == "cls":
        pooled = hidden[:, :1]
    elif pooling == "mean":
        pooled = (hidden * mask).sum(dim=1, keepdim=True) / mask.sum(dim=1, keepdim=True)
    elif pooling == "last":
        index = (attention_mask.sum(dim=1) - 1).view(-1, 1, 1).expand(-1, 1, hidden.shape[-1])
        pooled = hidden.gather(1, index)
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    pooled = pooled.squeeze()  # (B, 1, d) -> (B, d)
    return F.linear(pooled, weight, bias)
