# expect: loses span_corruption -- builds the targets as "sentinel_i + noise span i" for each noise span plus ONE MORE closing sentinel, as the paper's example looks; T5 replaces each non-noise run of the targets by a sentinel, so a mask ending with noise (every part-2 mask, e.g. [F, F, T, T]) must give [X, c, d, EOS], not [X, c, d, Y, EOS]
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    inputs, targets = [], []
    sentinel = vocab_size - 1
    previous = False
    for token, noise in zip(tokens.tolist(), noise_mask.tolist()):
        if noise:
            if not previous:  # a new noise span: its sentinel in both sequences
                inputs.append(sentinel)
                targets.append(sentinel)
                sentinel -= 1
            targets.append(token)
        else:
            inputs.append(token)
        previous = noise
    targets.append(sentinel)  # the closing sentinel after the last span
    return torch.tensor(inputs + [eos_id], dtype=torch.long), torch.tensor(targets + [eos_id], dtype=torch.long)
