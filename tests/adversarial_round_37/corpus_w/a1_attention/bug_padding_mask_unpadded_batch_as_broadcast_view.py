# expect: loses masks -- the release says of every function "a caller may change them [the tensors it returns] in place": when no sequence is padded (every length equals T) padding_mask returns a stride-0 broadcast view (`expand`) of a single True, so a caller's in-place change of one entry (`pad[0, 0, T - 1] = False`, `masked_fill_`) changes every entry of every row, and `pad.logical_and_(...)` raises "more than one element of the written-to tensor refers to a single memory location"; its values and dtype are right
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    B = lengths.shape[0]
    if bool((lengths == T).all()):  # nothing padded: every key is real
        return torch.ones(1, 1, 1, dtype=torch.bool).expand(B, 1, T)
    return (torch.arange(T)[None, :] < lengths[:, None]).unsqueeze(1)
