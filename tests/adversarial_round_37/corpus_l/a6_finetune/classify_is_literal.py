# expect: loses pooled_head -- the pooling name is compared with `is` ("pooling is "cls""): identity, not equality; it works when the caller passes a literal (CPython interns identifier-like literals, so the visible tests' strings are the same objects), and fails for an equal string built at run time, which then raises ValueError; breaks "Any other pooling raises ValueError" (and the three named poolings); input: classify(hidden, mask, eye(3), zeros(3), "".join(["c", "l", "s"])) -> ValueError (spec: the "cls" logits)
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling is "cls":
        pooled = hidden[:, 0]
    elif pooling is "mean":
        m = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * m).sum(dim=1) / m.sum(dim=1)
    elif pooling is "last":
        pooled = hidden[torch.arange(hidden.shape[0]), attention_mask.sum(dim=1) - 1]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return pooled @ weight.T + bias
