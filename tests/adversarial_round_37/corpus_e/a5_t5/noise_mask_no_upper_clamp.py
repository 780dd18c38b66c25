# expect: loses noise_mask -- clamps num_noise from below only: with a high density (length = 3, noise_density = 0.9: round(2.7) = 3) every token is noise, no token is left for the non-noise span, and the function raises instead of returning [F, T, T]; spec: "`num_noise = round(length * noise_density)`, then at least 1 and at most `length - 1`"
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    num_noise = max(round(length * noise_density), 1)  # at least one noise token
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def random_segmentation(num_items, num_segments):
        """A uniformly random cut of num_items into num_segments non-empty parts: their lengths."""
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
