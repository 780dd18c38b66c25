# expect: full marks — pooled_head: 'last' found as argmin(attention_mask) - 1 (the first padding position minus one; a row without padding has argmin 0, and index -1 wraps to its last position), 'mean' as a batched matmul of the normalised mask with hidden, dispatch by a dict of lambdas
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    rows = torch.arange(hidden.shape[0])
    poolers = {
        "cls": lambda: hidden[:, 0],
        "mean": lambda: torch.bmm((attention_mask / attention_mask.sum(1, keepdim=True)).to(hidden.dtype).unsqueeze(1),
                                  hidden.masked_fill(attention_mask.unsqueeze(-1) == 0, 0)).squeeze(1),
        "last": lambda: hidden[rows, torch.argmin(attention_mask, dim=1) - 1],
    }
    if pooling not in poolers:
        raise ValueError(f"pooling must be one of {sorted(poolers)}, got {pooling!r}")
    return F.linear(poolers[pooling](), weight, bias)
