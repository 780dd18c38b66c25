# expect: loses span_corruption -- does not append eos_id when the (corrupted) sequence already ends with it; spec: "then eos_id is appended" (inputs and targets alike, whatever the tokens)
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def one_sentinel_per_span(mask):
        previous = torch.cat([mask.new_zeros(1), mask[:-1]])
        first = mask & ~previous
        sentinels = vocab_size - torch.cumsum(first.long(), 0)
        replaced = torch.where(first, sentinels, tokens)[~(mask & previous)]
        if len(replaced) and replaced[-1] == eos_id:  # the text already ends with </s>
            return replaced
        return torch.cat([replaced, tokens.new_tensor([eos_id])])

    return one_sentinel_per_span(noise_mask), one_sentinel_per_span(~noise_mask)
