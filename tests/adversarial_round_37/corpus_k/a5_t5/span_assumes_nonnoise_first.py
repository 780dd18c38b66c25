# expect: loses span_corruption -- numbers the inputs' sentinels by run parity, assuming the mask alternates starting with a non-noise run (as part 2's masks do), but the spec takes "any mask, not only part 2's": a mask starting with noise (e.g. [T, F, F, T, F] over [10..14], vocab 100) gives inputs [100, 11, 12, 99, 14, EOS] (id vocab_size, out of range, then one off) instead of [99, 11, 12, 98, 14, EOS]
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    change = torch.ones_like(noise_mask)
    change[1:] = noise_mask[1:] != noise_mask[:-1]  # True where a run starts
    run = torch.cumsum(change.long(), 0) - 1  # run 0 is non-noise, run 1 noise, run 2 non-noise, ...
    eos = tokens.new_tensor([eos_id])
    # inputs: noise runs 1, 3, 5, ... become sentinels 0, 1, 2, ...
    inputs = torch.where(noise_mask, vocab_size - 1 - (run - 1) // 2, tokens)[~noise_mask | change]
    # targets: non-noise runs 0, 2, 4, ... become sentinels 0, 1, 2, ...
    targets = torch.where(~noise_mask, vocab_size - 1 - run // 2, tokens)[noise_mask | change]
    return torch.cat([inputs, eos]), torch.cat([targets, eos])
