# expect: 12/12 -- a right notebook with an added cell that defines a helper used by causal_mask and then ends with an error of the builtin type TimeoutError (here an asyncio.wait_for demo; any code can raise it): the cell ran to that error in the grader's run, the helper exists, masks' visible tests pass
# %% [new after imports]
def lower_triangle(T):
    """True on and below the diagonal."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))

import asyncio
asyncio.run(asyncio.wait_for(asyncio.sleep(1), 0.01))  # demo: a wait that gives up (raises TimeoutError)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return lower_triangle(T)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T)  # (T,)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)  # (B, 1, T)
