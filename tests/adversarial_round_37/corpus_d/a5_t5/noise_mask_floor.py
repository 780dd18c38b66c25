# expect: loses noise_mask -- the number of noise tokens is truncated with int() instead of rounded (and so is the number of spans), which is one token short whenever length * noise_density has a fractional part above one half; spec: "`num_noise = round(length * noise_density)`, then at least 1 and at most `length - 1`; `num_spans = round(num_noise / mean_noise_span_length)`"
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(int(length * noise_density + 1e-9), 1), length - 1)
    num_spans = max(int(num_noise / mean_noise_span_length + 1e-9), 1)

    def cut(n, k):
        gaps = torch.randperm(n - 1, generator=generator)[: k - 1].sort().values + 1
        edges = torch.cat([torch.tensor([0]), gaps, torch.tensor([n])])
        return edges.diff()

    noise, keep = cut(num_noise, num_spans), cut(length - num_noise, num_spans)
    mask = torch.zeros(length, dtype=torch.bool)
    pos = 0
    for a, b in zip(keep.tolist(), noise.tolist()):
        pos += a
        mask[pos : pos + b] = True
        pos += b
    return mask
