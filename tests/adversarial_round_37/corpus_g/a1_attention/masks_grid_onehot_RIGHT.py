# expect: full marks -- causal mask from comparing index grids, padding mask from a one-hot of the lengths and a reversed cumulative sum
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    i = torch.arange(T).view(T, 1)
    j = torch.arange(T).view(1, T)
    return j <= i


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    lengths = lengths.long().reshape(-1)
    ends = torch.nn.functional.one_hot(lengths.clamp(max=T), num_classes=T + 1)  # a 1 at position lengths[b]
    after_end = ends.cumsum(dim=-1)[:, :T]  # 1 from position lengths[b] on
    return (after_end == 0).unsqueeze(1)
