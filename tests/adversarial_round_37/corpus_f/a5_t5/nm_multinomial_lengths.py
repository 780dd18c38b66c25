# expect: loses noise_mask -- gives every span one token and deals the rest out one by one to uniformly random spans (a multinomial), which favours balanced cuts: the span lengths are not uniform over all ways to cut; spec: "each cut uniformly at random among all the ways to cut them: to cut n items into k non-empty parts, choose k - 1 of the n - 1 gaps between neighbouring items, all choices equally likely"
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def span_lengths(num_items, num_spans):
        lengths = torch.ones(num_spans, dtype=torch.long)  # every span non-empty
        extra = num_items - num_spans
        if extra > 0:  # the other items go to random spans
            picks = torch.multinomial(torch.ones(num_spans), extra, replacement=True, generator=generator)
            lengths += torch.bincount(picks, minlength=num_spans)
        return lengths

    noise = span_lengths(num_noise, num_spans)
    keep = span_lengths(length - num_noise, num_spans)
    mask = []
    for k, n in zip(keep.tolist(), noise.tolist()):  # non-noise first, then noise
        mask += [False] * k + [True] * n
    return torch.tensor(mask, dtype=torch.bool)
