# expect: loses noise_mask -- gives every span one item, then throws the remaining items into uniformly random spans: multinomial, not uniform over all the cuts (balanced cuts too likely)
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def cut(n, k):  # k non-empty parts of n items
        parts = torch.ones(k, dtype=torch.long)
        extra = torch.randint(0, k, (n - k,), generator=generator)  # each remaining item joins a random part
        return parts + torch.bincount(extra, minlength=k)

    noise, keep = cut(num_noise, num_spans), cut(length - num_noise, num_spans)
    mask = []
    for kept, noisy in zip(keep.tolist(), noise.tolist()):
        mask += [False] * kept + [True] * noisy
    return torch.tensor(mask, dtype=torch.bool)
