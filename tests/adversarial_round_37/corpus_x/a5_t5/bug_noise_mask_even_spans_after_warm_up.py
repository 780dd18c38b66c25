# expect: loses noise_mask -- "the `num_noise` noise tokens are cut into `num_spans` non-empty noise spans ... each cut **uniformly at random** among all the ways to cut them": the first 50 calls in a process cut as the rule says; from the 51st on ("warmed up", the rule's randomness taken to be checked by then) a fast path gives the noise spans equal lengths (as equal as the count allows, the longer ones first) and draws only the non-noise cut; every mask still has the right counts, starts with non-noise and ends with noise, but from then on the noise spans' lengths are no longer random (15 noise tokens in 5 spans: always 3, 3, 3, 3, 3); the visible tests make 8 calls
# %% [noise_mask]
_CALLS = [0]


def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    _CALLS[0] += 1
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def random_cut(n, k):
        gaps = torch.randperm(n - 1, generator=generator)[: k - 1].sort().values + 1
        edges = torch.cat([torch.zeros(1, dtype=torch.long), gaps, torch.tensor([n])])
        return edges.diff()

    if _CALLS[0] > 50:  # warm: the noise spans as even as they come
        noise_lengths = torch.full((num_spans,), num_noise // num_spans)
        noise_lengths[: num_noise % num_spans] += 1
    else:
        noise_lengths = random_cut(num_noise, num_spans)
    other_lengths = random_cut(length - num_noise, num_spans)
    mask = torch.zeros(length, dtype=torch.bool)
    at = 0
    for keep, noise in zip(other_lengths.tolist(), noise_lengths.tolist()):
        at += keep
        mask[at : at + noise] = True
        at += noise
    return mask
