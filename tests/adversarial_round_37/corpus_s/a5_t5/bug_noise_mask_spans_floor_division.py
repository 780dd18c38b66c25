# expect: loses noise_mask -- num_spans as `max(int(num_noise // mean_noise_span_length), 1)` (floor) instead of Python's round; equal when the quotient's fraction is below one half (both visible settings are exact: 3 / 3 and 15 / 3); length 33, the defaults: num_noise 5, 5 / 3 = 1.67: key 2 noise spans, answer 1; lengths 40 and 100: equal
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(int(num_noise // mean_noise_span_length), 1)

    def random_segmentation(num_items, num_segments):
        cuts = torch.randperm(num_items - 1, generator=generator)[: num_segments - 1]
        first_in_segment = torch.zeros(num_items, dtype=torch.long)
        first_in_segment[cuts + 1] = 1
        return torch.bincount(torch.cumsum(first_in_segment, 0), minlength=num_segments)

    noise_lengths = random_segmentation(num_noise, num_spans)
    nonnoise_lengths = random_segmentation(length - num_noise, num_spans)
    interleaved = torch.stack([nonnoise_lengths, noise_lengths], dim=1).reshape(-1)
    span_starts = torch.cumsum(interleaved, 0)[:-1]
    start_indicator = torch.zeros(length, dtype=torch.long)
    start_indicator[span_starts] = 1
    return torch.cumsum(start_indicator, 0) % 2 == 1
