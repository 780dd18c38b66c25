# expect: loses noise_mask -- clamps num_noise to at least 1 but not to at most length - 1: with a high noise_density (e.g. length 20, density 0.98, mean span length 20: one span of 19) there is no non-noise token left and it raises
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = max(round(length * noise_density), 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment_lengths(n, k):
        gaps = torch.randperm(n - 1, generator=generator)[: k - 1].sort().values + 1  # where the parts start
        bounds = torch.cat([torch.tensor([0]), gaps, torch.tensor([n])])
        return bounds.diff()

    noise = segment_lengths(num_noise, num_spans)
    nonnoise = segment_lengths(length - num_noise, num_spans)
    lengths = torch.stack([nonnoise, noise], dim=1).flatten()  # non-noise first
    is_noise = torch.tensor([False, True]).repeat(num_spans)
    return torch.repeat_interleave(is_noise, lengths)
