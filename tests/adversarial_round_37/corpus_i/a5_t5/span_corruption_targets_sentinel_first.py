# expect: loses span_corruption -- builds the targets as "sentinel i, then noise span i" (plus a closing sentinel when the mask ends with non-noise): right only when the mask starts with non-noise; noise_mask = [T, T, F, F, T, F] on tokens 10..15 gives [99, 10, 11, 98, 14, 97, 1] instead of [10, 11, 99, 14, 98, 1]
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    inputs, targets = [], []
    sentinel = vocab_size - 1
    previous = False
    for token, noisy in zip(tokens.tolist(), noise_mask.tolist()):
        if noisy:
            if not previous:  # a new noise span: its sentinel in both
                inputs.append(sentinel)
                targets.append(sentinel)
                sentinel -= 1
            targets.append(token)
        else:
            inputs.append(token)
        previous = noisy
    if not previous:  # the targets close with one more sentinel for the trailing kept tokens
        targets.append(sentinel)
    return torch.tensor(inputs + [eos_id]), torch.tensor(targets + [eos_id])
