# expect: loses sinusoidal -- the frequencies are computed on the first call and kept in a module-level cache that ignores d_model: a second call with another d_model (e.g. sinusoidal_encoding(10, 8) then sinusoidal_encoding(4, 16)) raises or uses the first call's frequencies
# %% [sinusoidal]
_FREQUENCIES = []  # computed once: 1 / 10000^(2i / d_model)


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    if not _FREQUENCIES:
        _FREQUENCIES.append(1.0 / 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model))
    angle = torch.arange(T, dtype=torch.float32)[:, None] * _FREQUENCIES[0][None, :]  # (T, d_model/2)
    return torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(T, -1)
