# expect: full marks -- builds both masks in NumPy (np.tri for the causal one, a broadcast comparison against the lengths converted to int64 for the padding one) and hands them to torch with torch.from_numpy
# %% [masks]
import numpy as np


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.from_numpy(np.tri(T, T, dtype=bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    lens = lengths.detach().cpu().numpy().astype(np.int64)  # any integer dtype: compare in int64
    keep = np.arange(T, dtype=np.int64)[None, :] < lens[:, None]  # (B, T)
    return torch.from_numpy(keep[:, None, :])  # (B, 1, T)
