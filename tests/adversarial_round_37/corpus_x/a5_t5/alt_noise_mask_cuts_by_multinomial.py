# expect: full marks -- each segmentation chooses its k - 1 cut gaps among the n - 1 gaps with torch.multinomial over equal weights without replacement (one gap at a time, each remaining gap equally likely: every set of gaps has the same chance, as the rule asks), from the one seeded generator; the counts with Python's round, at least 1 and at most length - 1, spans at least 1; non-noise first, the spans alternate, the mask built by repeat_interleave of alternating flags
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def lengths(n, k):
        if k == 1:
            return torch.tensor([n])
        gaps = torch.multinomial(torch.ones(n - 1), k - 1, replacement=False, generator=generator)
        bounds = torch.cat([torch.tensor([0]), gaps.sort().values + 1, torch.tensor([n])])
        return bounds.diff()

    noise = lengths(num_noise, num_spans)
    other = lengths(length - num_noise, num_spans)
    runs = torch.stack([other, noise], dim=1).flatten()  # non-noise, noise, non-noise, noise, ...
    flags = torch.tensor([False, True]).repeat(num_spans)
    return flags.repeat_interleave(runs)
