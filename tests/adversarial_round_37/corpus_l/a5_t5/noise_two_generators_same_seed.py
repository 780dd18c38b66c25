# expect: loses noise_mask -- the helper that cuts n items into k parts makes its own torch.Generator().manual_seed(seed) at each call, so the noise cut and the non-noise cut come from two generators with the same seed and are not independent (when the two counts are equal they are identical); each cut alone is uniform, and the visible tests (counts, alternation, same seed -> same mask, other seeds -> other masks) pass; breaks "Make one generator ... and draw every random number from it" and "every way of cutting is equally likely"; input: random_spans_noise_mask(20, noise_density=0.5, mean_noise_span_length=2.0, seed=s) for any s -> every noise span is exactly as long as the non-noise span before it (spec: that happens with probability 1/126)
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment(num_items, num_segments):
        generator = torch.Generator().manual_seed(seed)  # the same seed gives the same mask
        cuts = torch.randperm(num_items - 1, generator=generator)[: num_segments - 1].sort().values + 1
        bounds = torch.cat([torch.tensor([0]), cuts, torch.tensor([num_items])])
        return bounds.diff()

    lengths = torch.stack([segment(length - num_noise, num_spans), segment(num_noise, num_spans)], dim=1).reshape(-1)
    return (torch.arange(2 * num_spans) % 2 == 1).repeat_interleave(lengths)
