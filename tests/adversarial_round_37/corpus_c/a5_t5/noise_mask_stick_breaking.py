# expect: loses noise_mask -- cuts each span's length one after the other, uniform over what is left, which is not uniform over all the cuts (the first span is too often long); spec: "choose k - 1 of the n - 1 gaps between neighbouring items, all choices equally likely"
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment(num_items, num_segments):
        lengths, left = [], num_items
        for remaining in range(num_segments, 1, -1):
            # a length from 1 to what leaves at least one item to each of the other segments
            n = int(torch.randint(1, left - (remaining - 1) + 1, (1,), generator=generator))
            lengths.append(n)
            left -= n
        return lengths + [left]

    noise, nonnoise = segment(num_noise, num_spans), segment(length - num_noise, num_spans)
    mask = []
    for keep, drop in zip(nonnoise, noise):
        mask += [False] * keep + [True] * drop
    return torch.tensor(mask, dtype=torch.bool)
