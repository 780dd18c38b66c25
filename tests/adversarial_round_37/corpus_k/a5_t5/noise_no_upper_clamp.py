# expect: loses noise_mask -- num_noise is clamped to at least 1 but not to at most length - 1: with a high density (e.g. length=10, noise_density=0.99, mean_noise_span_length=100: round(9.9) = 10 noise tokens, 0 non-noise) it raises instead of returning 9 noise tokens after one non-noise token
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = max(round(length * noise_density), 1)  # at least one noise token
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def random_segmentation(num_items, num_segments):
        cuts = torch.randperm(num_items - 1, generator=generator)[: num_segments - 1]
        first_in_segment = torch.zeros(num_items, dtype=torch.long)
        first_in_segment[cuts + 1] = 1
        return torch.bincount(torch.cumsum(first_in_segment, 0), minlength=num_segments)

    noise_lengths = random_segmentation(num_noise, num_spans)
    nonnoise_lengths = random_segmentation(length - num_noise, num_spans)
    mask = []
    for keep, noise in zip(nonnoise_lengths.tolist(), noise_lengths.tolist()):
        mask += [False] * keep + [True] * noise
    return torch.tensor(mask, dtype=torch.bool)
