# expect: loses span_corruption -- "The sentinels are the ids at the top of the vocabulary: the first span gets vocab_size - 1 ...", for any vocab_size (the ids are torch.long): the span counter is made int32 (`.int()`), so `vocab_size - counter` is computed in int32, which cannot hold a vocabulary past 2**31 - 1 (at vocab_size = 2**33 the sentinels wrap to -1, -2, ...); every vocabulary below 2**31 (all the visible tests) is right
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def one_sentinel_per_span(mask):
        previous = torch.cat([torch.zeros(1, dtype=torch.bool), mask[:-1]])
        first = mask & ~previous
        sentinels = vocab_size - torch.cumsum(first.int(), 0, dtype=torch.int32)  # span numbers are small
        replaced = torch.where(first, sentinels.long(), tokens)
        return torch.cat([replaced[~(mask & previous)], torch.tensor([eos_id], dtype=torch.long)])

    return one_sentinel_per_span(noise_mask), one_sentinel_per_span(~noise_mask)
