# expect: loses noise_mask -- "num_noise = round(length * noise_density), then at least 1 and at most length - 1": only the lower bound is applied, so a density that rounds to the whole length (length 10, noise_density 0.97, mean_noise_span_length 10: one span, num_spans <= length - num_noise holds after the cap) makes every token noise and the non-noise segmentation of 0 items raises (randperm(-1)); the visible lengths never get near the cap
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    g = torch.Generator().manual_seed(seed)
    num_noise = max(round(length * noise_density), 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment(n, k):  # a uniformly random cut of n items into k non-empty parts
        cuts = torch.randperm(n - 1, generator=g)[: k - 1].sort().values + 1
        edges = torch.cat([torch.tensor([0]), cuts, torch.tensor([n])])
        return (edges[1:] - edges[:-1]).tolist()

    noise, keep = segment(num_noise, num_spans), segment(length - num_noise, num_spans)
    mask = []
    for a, b in zip(keep, noise):
        mask += [False] * a + [True] * b
    return torch.tensor(mask, dtype=torch.bool)
