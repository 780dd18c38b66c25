# expect: full marks -- computes the table in NumPy in float64 (np.outer of positions and frequencies, interleaved by stacking sin and cos on a last axis and reshaping) and returns it as a float32 torch tensor
# %% [sinusoidal]
import numpy as np


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    freq = 10000.0 ** (-np.arange(0, d_model, 2, dtype=np.float64) / d_model)  # (d_model / 2,)
    angle = np.outer(np.arange(T, dtype=np.float64), freq)  # (T, d_model / 2)
    table = np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(T, d_model)  # sin, cos side by side
    return torch.from_numpy(table.astype(np.float32))
