# expect: full marks -- style: each uniform cut as the first k - 1 of argsort(torch.rand(n - 1)) (a uniform subset of the gaps, drawn differently from the key), the spans' lengths from the sorted cuts by diff, the mask by repeat_interleave of alternating False/True
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def cut(n, k):  # lengths of a uniformly random cut of n items into k non-empty parts
        gaps = torch.rand(n - 1, generator=generator).argsort()[: k - 1].sort().values + 1
        edges = torch.cat([torch.tensor([0]), gaps, torch.tensor([n])])
        return edges.diff()

    nonnoise, noise = cut(length - num_noise, num_spans), cut(num_noise, num_spans)
    lengths = torch.stack([nonnoise, noise], dim=1).reshape(-1)  # non-noise, noise, non-noise, ...
    kinds = torch.tensor([False, True]).repeat(num_spans)
    return kinds.repeat_interleave(lengths)
