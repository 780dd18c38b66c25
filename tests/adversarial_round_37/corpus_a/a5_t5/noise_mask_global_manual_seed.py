# expect: loses noise_mask  -- torch.manual_seed(seed) and randperm from the global generator: reproducible, but reseeds the caller's global RNG; spec: "Make one generator, generator = torch.Generator().manual_seed(seed), and draw every random number from it"
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    torch.manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment_lengths(n, k):
        cuts = torch.sort(torch.randperm(n - 1)[: k - 1] + 1).values  # k - 1 of the n - 1 gaps
        bounds = torch.cat([torch.tensor([0]), cuts, torch.tensor([n])])
        return (bounds[1:] - bounds[:-1]).tolist()

    noise = segment_lengths(num_noise, num_spans)
    keep = segment_lengths(length - num_noise, num_spans)
    mask = []
    for a, b in zip(keep, noise):
        mask += [False] * a + [True] * b
    return torch.tensor(mask, dtype=torch.bool)
