# expect: loses noise_mask  -- splits the noise tokens into spans as evenly as possible (deterministically); only the non-noise spans are random; spec: "the num_noise noise tokens are cut into num_spans non-empty noise spans, and the length - num_noise other tokens into num_spans non-empty non-noise spans, each cut uniformly at random among all the ways to cut them"
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)
    # noise spans: as equal as possible (the mean span length is what matters)
    noise_lengths = [num_noise // num_spans + (1 if i < num_noise % num_spans else 0) for i in range(num_spans)]
    # non-noise spans: a uniformly random cut
    n_keep = length - num_noise
    cuts = torch.randperm(n_keep - 1, generator=generator)[: num_spans - 1].sort().values + 1
    edges = [0] + cuts.tolist() + [n_keep]
    keep_lengths = [edges[i + 1] - edges[i] for i in range(num_spans)]
    mask = torch.zeros(length, dtype=torch.bool)
    pos = 0
    for k, n in zip(keep_lengths, noise_lengths):
        pos += k
        mask[pos : pos + n] = True
        pos += n
    return mask
