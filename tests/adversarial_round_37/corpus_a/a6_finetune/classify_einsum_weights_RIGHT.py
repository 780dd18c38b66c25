# expect: full marks -- every pooling written as a (B, T) weighting (one-hot for cls/last, 1/n on real tokens for mean) applied with einsum, head applied with einsum
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    B, T, _ = hidden.shape
    real = attention_mask.to(hidden.dtype)  # (B, T): 1 at the real tokens
    if pooling == "cls":
        w = F.one_hot(torch.zeros(B, dtype=torch.long, device=hidden.device), T).to(hidden.dtype)
    elif pooling == "mean":
        w = real / real.sum(dim=1, keepdim=True)
    elif pooling == "last":
        w = F.one_hot(attention_mask.sum(dim=1).long() - 1, T).to(hidden.dtype)
    else:
        raise ValueError(f"pooling must be 'cls', 'mean' or 'last', not {pooling!r}")
    pooled = torch.einsum("bt,btd->bd", w, hidden)
    return torch.einsum("bd,cd->bc", pooled, weight) + bias
