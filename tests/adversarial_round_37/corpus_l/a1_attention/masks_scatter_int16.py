# expect: loses masks -- the padding mask is built by scattering a 1 at index lengths[b] and taking a cumulative sum; torch.scatter accepts only int32/int64 indices, so lengths in a smaller integer dtype (int8, int16, uint8) raise; breaks "lengths in any integer dtype"; input: padding_mask(torch.tensor([2, 3], dtype=torch.int16), 3) -> RuntimeError "scatter(): Expected dtype int32/int64 for index" (spec: [[T, T, F]], [[T, T, T]])
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return ~torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    B = lengths.shape[0]
    ends = torch.zeros(B, T + 1, dtype=torch.long).scatter(1, lengths[:, None], 1)  # a 1 where padding starts
    return (ends.cumsum(dim=1)[:, :T] == 0).unsqueeze(1)
