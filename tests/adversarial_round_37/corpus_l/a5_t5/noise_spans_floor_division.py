# expect: loses noise_mask -- the number of spans is taken as num_noise // mean_noise_span_length ("how many spans of the mean length fit"), a floor instead of Python's round; the visible settings divide exactly (3 / 3, 15 / 3); breaks "num_spans = round(num_noise / mean_noise_span_length), then at least 1"; input: random_spans_noise_mask(33) -> num_noise = round(4.95) = 5 in 1 span (spec: round(5 / 3) = 2 spans)
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
    lengths = torch.stack([nonnoise_lengths, noise_lengths], dim=1).reshape(-1)
    return (torch.arange(2 * num_spans) % 2 == 1).repeat_interleave(lengths)
