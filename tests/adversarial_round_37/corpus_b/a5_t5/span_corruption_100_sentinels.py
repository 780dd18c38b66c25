# expect: loses span_corruption -- has T5's 100 sentinels only (extra_id_0..99) and reuses the last one for every span after the 100th; spec: "the first span gets vocab_size - 1, the second vocab_size - 2, and so on"
# %% [span_corruption]
NUM_SENTINELS = 100  # T5's <extra_id_0> .. <extra_id_99>


def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def one_sentinel_per_span(mask):
        previous = torch.cat([torch.zeros(1, dtype=torch.bool), mask[:-1]])
        first = mask & ~previous
        span_index = (torch.cumsum(first.long(), 0) - 1).clamp(0, NUM_SENTINELS - 1)
        replaced = torch.where(first, vocab_size - 1 - span_index, tokens)
        keep = ~(mask & previous)
        return torch.cat([replaced[keep], torch.tensor([eos_id])])

    return one_sentinel_per_span(noise_mask), one_sentinel_per_span(~noise_mask)
