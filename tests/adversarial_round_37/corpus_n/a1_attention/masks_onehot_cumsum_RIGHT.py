# expect: full marks -- causal mask as a broadcast comparison of two aranges (row index >= column index), padding mask from a one-hot of each length over T + 1 slots whose running sum marks every position from lengths[b] on as padding (lengths cast to int64 first, so every integer dtype works, 0 and T included); both torch.bool of the right shapes
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    i = torch.arange(T)
    return i[:, None] >= i[None, :]


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    # one-hot of each length over the T + 1 possible lengths; its running sum is 1 from position lengths[b] on
    started = torch.nn.functional.one_hot(lengths.long(), T + 1).cumsum(dim=-1)[:, :T]  # (B, T)
    return (started == 0).unsqueeze(1)
