# expect: loses span_corruption (the targets' non-noise runs are taken to start at position 0 and after each noise run, part 2's convention that a mask starts with a non-noise token; the spec takes any mask: tokens 10..15, mask [T, T, F, F, T, F]: the answer's targets [99, 11, 98, 14, 97, 1] lose token 10 to a spurious sentinel, the key gives [10, 11, 99, 14, 98, 1]; every mask that starts with False agrees, inputs always agree)
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    eos = tokens.new_tensor([eos_id])
    previous = torch.cat([noise_mask.new_zeros(1), noise_mask[:-1]])
    # inputs: a noise span starts where noise follows non-noise (or at position 0)
    noise_start = noise_mask & ~previous
    inputs = torch.where(noise_start, vocab_size - torch.cumsum(noise_start.long(), 0), tokens)
    inputs = torch.cat([inputs[~noise_mask | noise_start], eos])
    # targets: a non-noise span starts at position 0 and right after each noise span
    clean_start = ~noise_mask & previous
    clean_start[0] = True
    targets = torch.where(clean_start, vocab_size - torch.cumsum(clean_start.long(), 0), tokens)
    targets = torch.cat([targets[noise_mask | clean_start], eos])
    return inputs, targets
