# expect: loses noise_mask -- cuts n items into k spans by giving each span one item and throwing the other n - k into uniformly random spans (balls in bins): the counts and the alternation are right, but the cuts are not uniform over all compositions; breaks 'each cut uniformly at random among all the ways to cut them ... all choices equally likely'; input: length=20, noise_density=0.2, mean_noise_span_length=2.0 (4 noise tokens in 2 spans), 3000 seeds -> first noise span of length 1/2/3: key ~1/3 each, this ~1/4, 1/2, 1/4
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def random_segmentation(num_items, num_segments):
        """A random cut of num_items into num_segments non-empty parts: their lengths."""
        extra = torch.randint(0, num_segments, (num_items - num_segments,), generator=generator)  # one each, the rest at random
        return 1 + torch.bincount(extra, minlength=num_segments)

    noise_lengths = random_segmentation(num_noise, num_spans)
    nonnoise_lengths = random_segmentation(length - num_noise, num_spans)
    interleaved = torch.stack([nonnoise_lengths, noise_lengths], dim=1).reshape(-1)  # non-noise first
    span_starts = torch.cumsum(interleaved, 0)[:-1]
    start_indicator = torch.zeros(length, dtype=torch.long)
    start_indicator[span_starts] = 1
    return torch.cumsum(start_indicator, 0) % 2 == 1  # odd spans are noise
