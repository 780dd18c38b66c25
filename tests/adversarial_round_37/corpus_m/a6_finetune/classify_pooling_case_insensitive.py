# expect: loses pooled_head -- lower-cases pooling before dispatching, so 'CLS', 'Mean' or 'LAST' are accepted; breaks 'Any other pooling raises ValueError' (the three names are exact strings); input: classify(hidden, mask, W, b, "CLS") -> key ValueError, this returns the cls logits
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    pooling = pooling.lower()  # "CLS" or "cls"
    mask = attention_mask.to(hidden.dtype).unsqueeze(-1)  # (B, T, 1): 1 at the real tokens
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        pooled = (hidden * mask).sum(1) / mask.sum(1)  # the real tokens only
    elif pooling == "last":
        last = attention_mask.sum(1) - 1  # right padding: the last real token
        pooled = hidden[torch.arange(hidden.shape[0]), last]
    else:
        raise ValueError(f"unknown pooling {pooling!r}: 'cls', 'mean' or 'last'")
    return pooled @ weight.T + bias
