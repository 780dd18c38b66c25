# expect: loses noise_mask — cuts n items into k non-empty spans by giving each span 1 item and throwing the other n - k items into the spans independently and uniformly (torch.multinomial with replacement), so span lengths are 1 + Binomial and balanced cuts are favoured; the spec: 'choose k - 1 of the n - 1 gaps ... all choices equally likely'; counts and alternation stay exact, only the law is wrong; input: length 100 with the defaults (15 noise tokens in 5 spans), 20000 seeds -> P(first noise span has length 1) is 0.110 for the file, 0.286 under the uniform cut (key 0.286)
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def cut(n, k):  # k non-empty parts of n items: one each, the rest spread at random
        extra = n - k
        lengths = torch.ones(k, dtype=torch.long)
        if extra > 0:
            where = torch.multinomial(torch.ones(k), extra, replacement=True, generator=generator)
            lengths += torch.bincount(where, minlength=k)
        return lengths

    noise = cut(num_noise, num_spans)
    other = cut(length - num_noise, num_spans)
    mask = []
    for a, b in zip(other.tolist(), noise.tolist()):
        mask += [False] * a + [True] * b
    return torch.tensor(mask, dtype=torch.bool)
