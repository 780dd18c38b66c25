# expect: loses pooled_head -- pools hidden.detach() ("the encoder is frozen anyway"): the logits still have a gradient to the head's weight and bias, so the visible test passes, but none reaches hidden, and an encoder fine-tuned through classify (parts 2 and 5: the last block, the biases, LoRA, adapters) never learns; spec: "Return the logits `(B, C)`; the head is trained on them, so keep them differentiable (no `torch.no_grad()`, no `.detach()`)"
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    hidden = hidden.detach()  # the encoder's states are features: only the head trains
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
