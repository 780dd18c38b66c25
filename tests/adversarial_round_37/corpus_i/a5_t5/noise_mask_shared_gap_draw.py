# expect: loses noise_mask -- one torch.rand over the gaps is shared by the noise and the non-noise segmentations (the same ranks cut both), so the two cuts are correlated and not every mask is equally likely: length=6, noise_density=0.5, mean_noise_span_length=1.5 yields only 2 of the 4 possible masks
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    g = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)
    num_keep = length - num_noise
    gap_keys = torch.rand(length, generator=g)  # one random key per gap, read by both cuts

    def lengths(n_items, n_parts):
        cut_at = torch.sort(torch.argsort(gap_keys[: n_items - 1])[: n_parts - 1]).values + 1
        bounds = torch.cat([torch.tensor([0]), cut_at, torch.tensor([n_items])])
        return (bounds[1:] - bounds[:-1]).tolist()

    mask = []
    for keep, noise in zip(lengths(num_keep, num_spans), lengths(num_noise, num_spans)):
        mask += [False] * keep + [True] * noise
    return torch.tensor(mask, dtype=torch.bool)
