# expect: loses span_corruption -- writes every token of a span as its sentinel and collapses each run with torch.unique_consecutive, which also collapses two EQUAL neighbouring tokens that are not in a span (a repeated word, repeated padding or digits); the visible sentence has distinct ids and passes; breaks 'every maximal run of noise tokens ... is replaced by one sentinel ...; the other tokens stay' (and the same for the targets); input: tokens [5, 5, 6, 7], noise_mask [F, F, T, F], vocab_size 100 -> inputs [5, 99, 7, 1] (key: [5, 5, 99, 7, 1])
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def one_sentinel_per_span(mask):
        first = mask & ~torch.cat([mask.new_zeros(1), mask[:-1]])  # the first token of each span
        sentinels = vocab_size - torch.cumsum(first.long(), 0)  # vocab_size - 1, vocab_size - 2, ...
        replaced = torch.where(mask, sentinels, tokens)  # every token of a span becomes its sentinel
        return torch.cat([torch.unique_consecutive(replaced), tokens.new_tensor([eos_id])])  # one per span

    return one_sentinel_per_span(noise_mask), one_sentinel_per_span(~noise_mask)
