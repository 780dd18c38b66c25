# expect: loses noise_mask (each cut into k non-empty parts made by giving every part one item and throwing the other n - k items into parts independently and uniformly (a multinomial), not by choosing k - 1 of the n - 1 gaps (every composition equally likely): counts and alternation exact, only the law differs: length 12, density 0.5, mean span 2 (6 noise tokens in 3 spans), seeds 0..19999: noise spans (2, 2, 2) in 0.224 of the masks against the key's 0.100 (1/10), (4, 1, 1) in 0.037 against 0.101; k = 1 or n = k (the visible length 20) agree exactly)
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def random_segmentation(num_items, num_segments):
        """num_items cut into num_segments non-empty parts: their lengths."""
        lengths = torch.ones(num_segments, dtype=torch.long)  # one item each, so no part is empty
        extra = num_items - num_segments
        if extra > 0:  # the rest go to random parts
            where = torch.randint(0, num_segments, (extra,), generator=generator)
            lengths += torch.bincount(where, minlength=num_segments)
        return lengths

    noise_lengths = random_segmentation(num_noise, num_spans)
    nonnoise_lengths = random_segmentation(length - num_noise, num_spans)
    interleaved = torch.stack([nonnoise_lengths, noise_lengths], dim=1).reshape(-1)
    is_noise = torch.tensor([False, True]).repeat(num_spans)
    return torch.repeat_interleave(is_noise, interleaved)
