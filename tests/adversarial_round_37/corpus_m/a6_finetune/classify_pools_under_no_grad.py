# expect: loses pooled_head -- pools under torch.no_grad() ('pooling has no weights to train'), so the logits still reach weight and bias (the visible head-gradient check passes) but no gradient flows back into hidden: the encoder below the head cannot be fine-tuned; breaks 'the head is trained on them, so keep them differentiable (no torch.no_grad(), no .detach())'; input: hidden = randn(2,4,3, requires_grad), mask [[1,1,1,0],[1,0,0,0]], "mean", logits.sum().backward() -> key hidden.grad nonzero, this None
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    with torch.no_grad():  # pooling has no weights: nothing to train here
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
    return pooled @ weight.T + bias  # the head's weights keep their gradient
