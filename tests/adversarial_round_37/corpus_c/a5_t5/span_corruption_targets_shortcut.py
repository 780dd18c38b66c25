# expect: loses span_corruption -- writes the targets as "sentinel, noise span" for each noise span plus one closing sentinel, which is right only when the mask starts and ends with non-noise; spec: "targets: the same with ~noise_mask: every maximal run of non-noise tokens is replaced by one sentinel" and "any mask, not only part 2's"
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    inputs, targets, sentinel = [], [], vocab_size - 1
    for i, (token, noisy) in enumerate(zip(tokens.tolist(), noise_mask.tolist())):
        starts = noisy and (i == 0 or not noise_mask[i - 1])
        if starts:  # a new noise span: one sentinel in the inputs, the same before the span in the targets
            inputs.append(sentinel)
            targets.append(sentinel)
            sentinel -= 1
        if noisy:
            targets.append(token)
        else:
            inputs.append(token)
    targets.append(sentinel)  # the closing sentinel
    return torch.tensor(inputs + [eos_id], dtype=torch.long), torch.tensor(targets + [eos_id], dtype=torch.long)
