# expect: loses noise_mask -- cut positions drawn with torch.randint (with replacement): two equal cuts make an empty span, so spans merge and the span count is wrong for some seeds (e.g. length=100 defaults: seeds with fewer than 5 noise spans)
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment(n, k):
        cuts = torch.randint(1, n, (k - 1,), generator=generator) if k > 1 else torch.zeros(0, dtype=torch.long)
        edges = torch.cat([torch.tensor([0]), cuts.sort().values, torch.tensor([n])])
        return edges.diff()

    noise, keep = segment(num_noise, num_spans), segment(length - num_noise, num_spans)
    mask = torch.zeros(length, dtype=torch.bool)
    pos = 0
    for a, b in zip(keep.tolist(), noise.tolist()):
        pos += a
        mask[pos : pos + b] = True
        pos += b
    return mask
