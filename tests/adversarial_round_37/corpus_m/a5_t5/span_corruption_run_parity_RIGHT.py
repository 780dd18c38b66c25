# expect: full marks -- numbers every maximal run of the mask (runs alternate noise / non-noise), so the j-th run of a mask is run 2j (if the mask starts the sequence) or 2j+1: sentinel vocab_size - 1 - j at each run's first token, the run's other tokens dropped, EOS appended; equal to the key for any mask (all True, all False, starting with either) and length
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    starts = torch.ones(len(noise_mask), dtype=torch.bool)
    starts[1:] = noise_mask[1:] != noise_mask[:-1]  # a maximal run starts here
    run = torch.cumsum(starts.long(), 0) - 1  # the run of each token: runs alternate noise / non-noise

    def replace_runs(mask):
        offset = 0 if bool(mask[0]) else 1  # mask's runs are the even runs, or the odd ones
        sentinels = vocab_size - 1 - (run - offset) // 2  # the j-th run of mask gets vocab_size - 1 - j
        replaced = torch.where(mask & starts, sentinels, tokens)
        return torch.cat([replaced[~(mask & ~starts)], tokens.new_tensor([eos_id])])

    return replace_runs(noise_mask), replace_runs(~noise_mask)
