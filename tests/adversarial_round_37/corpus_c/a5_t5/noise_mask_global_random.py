# expect: loses noise_mask -- draws the cuts with Python's global random module, reseeded with the seed, instead of one torch generator; spec: "Make one generator, generator = torch.Generator().manual_seed(seed), and draw every random number from it"
# %% [noise_mask]
import random


def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    random.seed(seed)  # the same seed gives the same mask
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment(num_items, num_segments):
        cuts = sorted(random.sample(range(1, num_items), num_segments - 1))
        bounds = [0] + cuts + [num_items]
        return [b - a for a, b in zip(bounds, bounds[1:])]

    noise, nonnoise = segment(num_noise, num_spans), segment(length - num_noise, num_spans)
    mask = []
    for keep, drop in zip(nonnoise, noise):
        mask += [False] * keep + [True] * drop
    return torch.tensor(mask, dtype=torch.bool)
