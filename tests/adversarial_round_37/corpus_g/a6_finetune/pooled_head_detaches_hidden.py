# expect: loses pooled_head -- detaches the hidden states ("the encoder is frozen in a probe"): the head still gets a gradient, but none flows back into the encoder when it is fine-tuned
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    hidden = hidden.detach()  # only the head is trained on these logits
    m = attention_mask.unsqueeze(-1).float()
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        pooled = (hidden * m).sum(1) / m.sum(1)
    elif pooling == "last":
        idx = (attention_mask.sum(1) - 1).view(-1, 1, 1).expand(-1, 1, hidden.size(-1))
        pooled = hidden.gather(1, idx).squeeze(1)
    else:
        raise ValueError(pooling)
    return F.linear(pooled, weight, bias)
