# expect: loses noise_mask -- picks cut points among the n - 1 gaps but marks item `cut` (not `cut + 1`) as a segment start: a cut at item 0 makes an empty first segment, so for some seeds spans merge or vanish
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def random_segmentation(num_items, num_segments):
        cuts = torch.randperm(num_items - 1, generator=generator)[: num_segments - 1]
        starts = torch.zeros(num_items, dtype=torch.long)
        starts[cuts] = 1  # a new segment starts at each cut
        segment_id = torch.cumsum(starts, 0)
        return torch.bincount(segment_id, minlength=num_segments)[:num_segments]

    noise_lengths = random_segmentation(num_noise, num_spans)
    nonnoise_lengths = random_segmentation(length - num_noise, num_spans)
    interleaved = torch.stack([nonnoise_lengths, noise_lengths], dim=1).reshape(-1)
    span_starts = torch.cumsum(interleaved, 0)[:-1]
    start_indicator = torch.zeros(length, dtype=torch.long)
    start_indicator[span_starts[span_starts < length]] = 1
    return torch.cumsum(start_indicator, 0) % 2 == 1
