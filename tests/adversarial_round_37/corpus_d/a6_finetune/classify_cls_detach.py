# expect: loses pooled_head -- the "cls" pooling detaches the first token's hidden state (only the head is meant to train), so no gradient reaches hidden through it; spec: "the head is trained on them, so keep them differentiable (no `torch.no_grad()`, no `.detach()`)"
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    if pooling == "cls":
        pooled = hidden[:, 0].detach()  # [CLS]: a fixed summary, the head learns on top
    elif pooling == "mean":
        m = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * m).sum(dim=1) / m.sum(dim=1)
    elif pooling == "last":
        pooled = hidden[torch.arange(hidden.shape[0]), attention_mask.sum(dim=1) - 1]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return F.linear(pooled, weight, bias)
