# expect: 12/12 -- a right notebook with an added cell that defines a helper used by causal_mask and ends with `raise TimeoutError(...)` (no module outside the allow-list): the cell ran to that line in the graded run, the helper exists, masks' visible tests pass; and no note should claim a time limit was passed
# %% [new after imports]
def lower_triangle(T):
    """True on and below the diagonal."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


raise TimeoutError("the plotting demo below is for later")  # any code may end in a builtin TimeoutError
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return lower_triangle(T)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T)  # (T,)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)  # (B, 1, T)
