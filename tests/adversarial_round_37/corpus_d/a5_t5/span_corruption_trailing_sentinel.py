# expect: loses span_corruption -- builds the targets as "sentinel i + noise span i" for each noise span plus one closing sentinel, which is the spec's rule only when the mask starts and ends with non-noise (a mask ending in noise, as part 2's always do, gets a spurious last sentinel; one starting with noise a spurious first one); spec: "**targets**: the same with `~noise_mask`: every maximal run of **non-noise** tokens is replaced by one sentinel, numbered in order from the left" (for "any mask, not only part 2's")
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    ids, noise = tokens.tolist(), noise_mask.tolist()
    inputs, targets, n_spans = [], [], 0
    for i, (t, m) in enumerate(zip(ids, noise)):
        starts = m and (i == 0 or not noise[i - 1])
        if starts:
            n_spans += 1
            inputs.append(vocab_size - n_spans)
            targets.append(vocab_size - n_spans)
        if m:
            targets.append(t)
        else:
            inputs.append(t)
    targets.append(vocab_size - n_spans - 1)  # the sentinel closing the last span
    return torch.tensor(inputs + [eos_id], dtype=torch.long), torch.tensor(targets + [eos_id], dtype=torch.long)
