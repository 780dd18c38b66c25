# expect: loses noise_mask -- num_noise = int(length * noise_density) truncates instead of rounding: length=33 (4.95) gives 4 noise tokens instead of 5
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(int(length * noise_density), 1), length - 1)
    num_spans = max(int(round(num_noise / mean_noise_span_length)), 1)

    def segment_lengths(n, k):
        gaps = torch.randperm(n - 1, generator=generator)[: k - 1] + 1  # cut after these items
        bounds = torch.cat([torch.tensor([0]), gaps.sort().values, torch.tensor([n])])
        return bounds.diff()

    noise = segment_lengths(num_noise, num_spans)
    keep = segment_lengths(length - num_noise, num_spans)
    mask = []
    for kept, noisy in zip(keep.tolist(), noise.tolist()):
        mask += [False] * kept + [True] * noisy
    return torch.tensor(mask, dtype=torch.bool)
