# expect: full marks -- picks the cut gaps as the k - 1 smallest of n - 1 uniforms from the generator (a uniform subset), builds the mask from Python lists
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def parts(n, k):
        keys = torch.rand(n - 1, generator=generator)
        gaps = sorted((torch.argsort(keys)[: k - 1] + 1).tolist())  # cut before item g
        bounds = [0, *gaps, n]
        return [hi - lo for lo, hi in zip(bounds[:-1], bounds[1:])]

    noise = parts(num_noise, num_spans)
    other = parts(length - num_noise, num_spans)
    out = []
    for a, b in zip(other, noise):
        out.extend([False] * a)
        out.extend([True] * b)
    return torch.tensor(out, dtype=torch.bool)
