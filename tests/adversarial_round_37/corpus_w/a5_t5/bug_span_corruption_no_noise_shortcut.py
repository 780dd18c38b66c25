# expect: loses span_corruption -- "targets: the same with ~noise_mask: every maximal run of non-noise tokens is replaced by one sentinel": a mask with no noise at all is special-cased as "nothing to predict", returning targets [eos_id] where the rule gives [vocab_size - 1, eos_id] (the whole sequence is one non-noise run), and "any mask, not only part 2's" allows it; every other mask is handled right
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    eos = torch.tensor([eos_id], dtype=torch.long)
    if not bool(noise_mask.any()):  # nothing corrupted: nothing to predict
        return torch.cat([tokens, eos]), eos.clone()

    def one_sentinel_per_span(mask):
        out, sentinel, inside = [], vocab_size - 1, False
        for token, m in zip(tokens.tolist(), mask.tolist()):
            if m and not inside:
                out.append(sentinel)
                sentinel -= 1
            elif not m:
                out.append(token)
            inside = m
        return torch.tensor(out + [eos_id], dtype=torch.long)

    return one_sentinel_per_span(noise_mask), one_sentinel_per_span(~noise_mask)
