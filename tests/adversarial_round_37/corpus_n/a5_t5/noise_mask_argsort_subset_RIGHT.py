# expect: full marks -- draws the k - 1 cut gaps of each segmentation as the first k - 1 entries of the argsort of n - 1 float64 uniforms from the seeded generator (a uniformly random subset, as randperm's prefix), turns the sorted cuts into segment lengths with torch.diff, interleaves non-noise/noise lengths and expands them with repeat_interleave; exact counts and alternation on every call, same law as the key over seeds (every way of cutting equally likely), global RNG untouched
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment_lengths(num_items, num_segments):
        """num_items cut at a uniformly random subset of num_segments - 1 of its num_items - 1 gaps."""
        gaps = torch.rand(num_items - 1, generator=generator, dtype=torch.float64).argsort()[: num_segments - 1]
        edges = torch.cat([torch.tensor([0]), gaps.sort().values + 1, torch.tensor([num_items])])
        return torch.diff(edges)

    lengths = torch.stack([segment_lengths(length - num_noise, num_spans), segment_lengths(num_noise, num_spans)], dim=1).reshape(-1)
    is_noise = torch.arange(2 * num_spans) % 2 == 1  # non-noise, noise, non-noise, ...
    return torch.repeat_interleave(is_noise, lengths)
