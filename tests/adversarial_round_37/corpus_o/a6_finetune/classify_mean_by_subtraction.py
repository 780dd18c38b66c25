# expect: loses pooled_head — 'mean' pools as (sum over all positions - sum over the padding) / number of real tokens, so the padded hidden states enter the arithmetic and cancel only approximately: with large finite values at the padding (the spec: 'whatever the encoder wrote there (finite numbers, not zeros)') float32 cancellation destroys the real tokens' sum; input: hidden = randn(2, 4, 3) with hidden[0, 3] = 1e9, mask [[1, 1, 1, 0], [1, 1, 1, 1]], identity head -> file row 0 is [0, 0, 0] (the real tokens' sum is lost in 1e9 - 1e9), key row 0 the mean of its 3 real tokens [-0.625, -0.806, 0.303]
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    real = attention_mask.unsqueeze(-1).to(hidden.dtype)
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        padding_sum = (hidden * (1 - real)).sum(dim=1)
        pooled = (hidden.sum(dim=1) - padding_sum) / real.sum(dim=1)
    elif pooling == "last":
        pooled = hidden[torch.arange(hidden.shape[0]), attention_mask.sum(dim=1) - 1]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    return pooled @ weight.T + bias
