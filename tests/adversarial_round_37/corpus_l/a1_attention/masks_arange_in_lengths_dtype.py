# expect: loses masks -- the positions are made with torch.arange(T, dtype=lengths.dtype) "to match the dtype": for a small integer dtype the positions overflow past its range (uint8 past 255, int8 past 127) and wrap or fail; breaks "lengths in any integer dtype" with "no fixed limit on its length"; input: padding_mask(torch.tensor([3], dtype=torch.uint8), 300) -> positions 256..258 wrap to 0..2 (or arange raises), so key positions 256-258 come out True (spec: only 0, 1, 2 True)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    i = torch.arange(T)
    return i[:, None] >= i[None, :]


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T, dtype=lengths.dtype)  # same integer type as the lengths
    return (positions < lengths[:, None]).unsqueeze(1)
