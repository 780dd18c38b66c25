# expect: loses noise_mask  -- seeds Python's global random module (random.seed) and cuts with random.sample: uniform and reproducible, but global state is reseeded and no torch generator is used; spec: "Make one generator, generator = torch.Generator().manual_seed(seed), and draw every random number from it"
# %% [noise_mask]
import random


def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    random.seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def cut(n, k):  # a uniformly random composition of n into k positive parts
        gaps = sorted(random.sample(range(1, n), k - 1))
        edges = [0] + gaps + [n]
        return [edges[i + 1] - edges[i] for i in range(k)]

    noise, keep = cut(num_noise, num_spans), cut(length - num_noise, num_spans)
    out = []
    for a, b in zip(keep, noise):
        out.extend([False] * a + [True] * b)
    return torch.tensor(out)
