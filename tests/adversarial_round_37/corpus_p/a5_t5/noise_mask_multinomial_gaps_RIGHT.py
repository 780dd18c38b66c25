# expect: full marks -- picks each segmentation's cut gaps with torch.multinomial over equal weights without replacement (a uniform subset of the gaps, drawn from the one generator), turns lengths into the mask with repeat_interleave of alternating False/True
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def segment_lengths(num_items):
        if num_spans == 1:
            return torch.tensor([num_items])
        gaps = torch.multinomial(torch.ones(num_items - 1), num_spans - 1, replacement=False, generator=generator)
        edges = torch.cat([torch.tensor([0]), gaps.sort().values + 1, torch.tensor([num_items])])
        return edges.diff()  # num_spans positive lengths

    other = segment_lengths(length - num_noise)
    noise = segment_lengths(num_noise)
    lengths = torch.stack([other, noise], dim=1).reshape(-1)  # non-noise, noise, non-noise, ...
    kinds = torch.arange(2 * num_spans) % 2 == 1
    return torch.repeat_interleave(kinds, lengths)
