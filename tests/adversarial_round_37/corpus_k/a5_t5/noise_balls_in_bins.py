# expect: loses noise_mask -- each span gets one item and the remaining items are thrown into spans uniformly at random (a multinomial), which is not "uniformly at random among all the ways to cut them": e.g. 4 noise items in 2 spans gives (2,2) half the time instead of a third; counts and alternation are exact, only the law is wrong
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def random_segmentation(num_items, num_segments):
        """num_segments non-empty parts: one item each, the rest spread at random."""
        extra = torch.randint(0, num_segments, (num_items - num_segments,), generator=generator)
        return 1 + torch.bincount(extra, minlength=num_segments)

    noise_lengths = random_segmentation(num_noise, num_spans)
    nonnoise_lengths = random_segmentation(length - num_noise, num_spans)
    interleaved = torch.stack([nonnoise_lengths, noise_lengths], dim=1).reshape(-1)
    is_noise = torch.arange(2 * num_spans) % 2 == 1
    return torch.repeat_interleave(is_noise, interleaved)
