# expect: loses noise_mask -- cuts both kinds of spans with ONE random permutation of the larger set of gaps, each taking the first num_spans - 1 of its own gaps in that order; each cut alone is uniform and every count is exact, but the two cuts are not independent (small gap indices that come early serve both), so the masks are not equally likely. Breaks "each cut uniformly at random among all the ways to cut them" jointly ("every way of cutting is equally likely"); input: length 100, defaults (15 noise tokens in 5 spans, 85 others in 5 spans), seeds 0..19999 -> P(the first non-noise span and the first noise span both have length 1): key 0.0128 (independent uniform cuts: 4/84 * 4/14 = 0.0136), this answer 0.0478; correlation of the two lengths: key -0.004, this answer +0.057 (each length alone has the right mean: 17 and 3)
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)
    num_other = length - num_noise
    order = torch.randperm(max(num_noise, num_other) - 1, generator=generator)  # one shuffle of the gaps serves both cuts

    def cut(num_items):
        gaps = order[order < num_items - 1][: num_spans - 1]  # the first num_spans - 1 of this set's gaps, in shuffled order
        first = torch.zeros(num_items, dtype=torch.long)
        first[gaps + 1] = 1
        return torch.bincount(torch.cumsum(first, 0), minlength=num_spans)

    lengths = torch.stack([cut(num_other), cut(num_noise)], dim=1).reshape(-1)  # non-noise first
    return torch.repeat_interleave(torch.arange(2 * num_spans) % 2 == 1, lengths)
