# expect: 12/12 -- a right notebook with an added cell (after the imports) that defines a helper used by causal_mask, then runs a demo interrupted at the cell limit (--cell-timeout 10); the helper was defined before the interrupt, and masks' visible tests pass
# %% [new after imports]
def lower_triangle(T):
    """True on and below the diagonal."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))

import time
_t0 = time.time()
while time.time() - _t0 < 15:  # a demo left running too long
    lower_triangle(256)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return lower_triangle(T)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T)  # (T,)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)  # (B, 1, T)
