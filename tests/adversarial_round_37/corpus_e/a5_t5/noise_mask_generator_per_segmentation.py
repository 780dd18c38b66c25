# expect: loses noise_mask -- makes a fresh generator from `seed` inside the segmentation helper, so the noise cut and the non-noise cut start from the same random stream: each cut alone is uniform, but the two are tied (with as many noise as non-noise tokens, noise_density = 0.5, the noise spans always have exactly the non-noise spans' lengths), so not every mask is equally likely; spec: "Make one generator, `generator = torch.Generator().manual_seed(seed)`, and draw every random number from it" and "over many seeds, that every way of cutting is equally likely"
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def random_segmentation(num_items, num_segments):
        """A uniformly random cut of num_items into num_segments non-empty parts: their lengths."""
        generator = torch.Generator().manual_seed(seed)  # reproducible: the same seed, the same cut
        cuts = torch.randperm(num_items - 1, generator=generator)[: num_segments - 1]  # the gaps cut at
        first_in_segment = torch.zeros(num_items, dtype=torch.long)
        first_in_segment[cuts + 1] = 1
        return torch.bincount(torch.cumsum(first_in_segment, 0), minlength=num_segments)

    noise_lengths = random_segmentation(num_noise, num_spans)
    nonnoise_lengths = random_segmentation(length - num_noise, num_spans)
    interleaved = torch.stack([nonnoise_lengths, noise_lengths], dim=1).reshape(-1)  # non-noise first
    span_starts = torch.cumsum(interleaved, 0)[:-1]
    start_indicator = torch.zeros(length, dtype=torch.long)
    start_indicator[span_starts] = 1
    return torch.cumsum(start_indicator, 0) % 2 == 1  # odd spans are noise
