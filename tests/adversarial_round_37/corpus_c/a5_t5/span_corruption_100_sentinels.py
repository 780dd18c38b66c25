# expect: loses span_corruption -- takes the sentinels from a table of T5's 100 <extra_id_*> ids, so a 101st span has no sentinel (IndexError); spec: "the first span gets vocab_size - 1, the second vocab_size - 2, and so on" (any mask)
# %% [span_corruption]
NUM_SENTINELS = 100  # T5's <extra_id_0> .. <extra_id_99>


def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    sentinel_ids = vocab_size - 1 - torch.arange(NUM_SENTINELS)

    def one_sentinel_per_span(mask):
        previous = torch.cat([mask.new_zeros(1), mask[:-1]])
        first = mask & ~previous
        number = torch.cumsum(first.long(), 0) - 1
        replaced = tokens.clone()
        replaced[first] = sentinel_ids[number[first]]
        return torch.cat([replaced[~(mask & previous)], tokens.new_tensor([eos_id])])

    return one_sentinel_per_span(noise_mask), one_sentinel_per_span(~noise_mask)
