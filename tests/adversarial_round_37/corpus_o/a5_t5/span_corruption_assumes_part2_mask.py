# expect: loses span_corruption — assumes the noise mask has part 2's form (starting with a non-noise token), so it never starts a noise run at position 0 and always starts a non-noise run there; a mask that starts with noise (allowed: 'any mask, not only part 2's') loses the inputs' first sentinel and the noise tokens under it, and the targets overwrite the first noise token with a sentinel; input: tokens = arange(10, 16), noise_mask = [T, T, F, F, T, F], vocab_size 100 -> file inputs [12, 13, 99, 15, 1], targets [99, 11, 98, 14, 97, 1]; key inputs [99, 12, 13, 98, 15, 1], targets [10, 11, 99, 14, 98, 1]
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def replace_runs(mask, first_is_start):
        starts = torch.zeros_like(mask)
        starts[1:] = mask[1:] & ~mask[:-1]  # a run starts where the mask turns on
        starts[0] = first_is_start  # part 2's masks start with a non-noise token
        sentinel = vocab_size - torch.cumsum(starts.long(), 0)
        out = torch.where(starts, sentinel, tokens)
        keep = ~mask | starts
        return torch.cat([out[keep], torch.tensor([eos_id], dtype=torch.long)])

    return replace_runs(noise_mask, False), replace_runs(~noise_mask, True)
