# expect: loses noise_mask -- both segmentations read their cuts from ONE randperm of max(n_noise, n_clean) - 1 gaps (each takes, in the permutation's order, the first k - 1 gaps that exist for it): each cut alone is uniform, but the two are tied together (with n_noise == n_clean they are the same cut, so noise span i and the clean span before it always have equal lengths): length 20, density 0.5, mean span 2 -> 5 noise spans whose lengths equal the clean spans' on every seed; the key's agree on about 1 seed in 126
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)
    num_clean = length - num_noise
    order = torch.randperm(max(num_noise, num_clean) - 1, generator=generator)  # one shuffle of the gaps serves both cuts

    def lengths(n):
        cuts = order[order < n - 1][: num_spans - 1].sort().values + 1  # the first k - 1 gaps of this segment, in order
        edges = torch.cat([torch.tensor([0]), cuts, torch.tensor([n])])
        return edges.diff()

    noise_lengths, clean_lengths = lengths(num_noise), lengths(num_clean)
    spans = torch.stack([clean_lengths, noise_lengths], dim=1).reshape(-1)
    is_noise = torch.tensor([False, True]).repeat(num_spans)
    return torch.repeat_interleave(is_noise, spans)
