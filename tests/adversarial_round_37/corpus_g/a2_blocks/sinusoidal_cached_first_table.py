# expect: loses sinusoidal -- caches the first table it builds and slices it for any later call with T <= cached length, ignoring d_model (wrong width/values after a call with another d_model)
# %% [sinusoidal]
_pe_cache = None  # the table is the same every time: build it once


def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    global _pe_cache
    if _pe_cache is None or _pe_cache.shape[0] < T:
        n = max(T, 512)
        position = torch.arange(n, dtype=torch.float32).unsqueeze(1)
        freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
        table = torch.zeros(n, d_model)
        table[:, 0::2] = torch.sin(position * freq)
        table[:, 1::2] = torch.cos(position * freq)
        _pe_cache = table
    return _pe_cache[:T]
