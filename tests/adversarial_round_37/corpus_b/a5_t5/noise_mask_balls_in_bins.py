# expect: loses noise_mask -- gives each span one token and throws the rest into spans one at a time at random (a multinomial), which is not uniform over the ways to cut (even cuts are favoured); spec: "each cut uniformly at random among all the ways to cut them: ... choose k - 1 of the n - 1 gaps ..., all choices equally likely"
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def split(total, parts):
        """total items into parts non-empty parts: one each, the rest to random parts."""
        extra = torch.randint(0, parts, (total - parts,), generator=generator)
        return 1 + torch.bincount(extra, minlength=parts)

    noise = split(num_noise, num_spans)
    other = split(length - num_noise, num_spans)
    mask = []
    for n_other, n_noise in zip(other.tolist(), noise.tolist()):
        mask += [False] * n_other + [True] * n_noise
    return torch.tensor(mask, dtype=torch.bool)
