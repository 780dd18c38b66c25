# expect: full marks -- chooses the k - 1 cut gaps as the k - 1 smallest of n - 1 float64 uniform keys (a uniformly random subset, like the first k - 1 of a random permutation), builds the span lengths from the sorted cut positions with diff, and writes the mask span by span in a Python loop; spec: "to cut `n` items into `k` non-empty parts, choose `k - 1` of the `n - 1` gaps between neighbouring items, all choices equally likely, and cut there" and "the spans alternate, **starting with a non-noise span**"
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    num_noise = int(min(max(round(length * noise_density), 1), length - 1))
    num_spans = int(max(round(num_noise / mean_noise_span_length), 1))

    def cut(n, k):
        keys = torch.rand(n - 1, generator=generator, dtype=torch.float64)
        gaps = torch.sort(torch.argsort(keys)[: k - 1]).values + 1  # cut before these items
        bounds = torch.cat([torch.tensor([0]), gaps, torch.tensor([n])])
        return torch.diff(bounds).tolist()

    noise = cut(num_noise, num_spans)
    other = cut(length - num_noise, num_spans)
    mask = []
    for a, b in zip(other, noise):
        mask += [False] * a + [True] * b
    return torch.tensor(mask, dtype=torch.bool)
