# expect: loses noise_mask -- seeds NumPy's global RNG (np.random.seed) and draws the cuts from it: the law is right, but no torch generator is used and the global NumPy stream is reset on every call; spec: "Make one generator, generator = torch.Generator().manual_seed(seed), and draw every random number from it"
# %% [noise_mask]
import numpy as np


def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    np.random.seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment_lengths(n, k):
        cuts = np.sort(np.random.choice(n - 1, k - 1, replace=False)) + 1  # k - 1 distinct gaps
        return np.diff(np.concatenate([[0], cuts, [n]]))

    noise = segment_lengths(num_noise, num_spans)
    other = segment_lengths(length - num_noise, num_spans)
    mask = np.concatenate([np.repeat([False, True], [o, s]) for o, s in zip(other, noise)])
    return torch.from_numpy(mask.astype(bool))
