# expect: loses span_corruption -- builds the targets as "sentinel i, then noise span i" for every noise span, plus a closing sentinel when the mask ends with non-noise (the paper's "<X> for inviting <Y> last <Z>"): right whenever the mask starts with non-noise (part 2's masks, the paper's example), but a mask that starts with noise gets a sentinel before its first noise span, where T5 puts none; spec: "`noise_mask` a `torch.bool` tensor of the same length (any mask, not only part 2's)" and "**targets**: the same with `~noise_mask`: every maximal run of **non-noise** tokens is replaced by one sentinel, numbered in order from the left; the noise tokens stay"
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    # the runs of equal mask values, left to right: (is_noise, start, end)
    runs, start = [], 0
    for i in range(1, len(tokens) + 1):
        if i == len(tokens) or bool(noise_mask[i]) != bool(noise_mask[start]):
            runs.append((bool(noise_mask[start]), start, i))
            start = i
    inputs, targets, n_noise = [], [], 0
    for is_noise, a, b in runs:
        if is_noise:  # <X> in the inputs; <X> then the span in the targets
            sentinel = vocab_size - 1 - n_noise
            inputs.append(sentinel)
            targets += [sentinel] + tokens[a:b].tolist()
            n_noise += 1
        else:
            inputs += tokens[a:b].tolist()
    if runs and not runs[-1][0]:  # the targets close with one more sentinel
        targets.append(vocab_size - 1 - n_noise)
    return torch.tensor(inputs + [eos_id], dtype=torch.long), torch.tensor(targets + [eos_id], dtype=torch.long)
