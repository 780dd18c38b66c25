# expect: full marks -- Python list comprehension over itertools.groupby runs, sentinels counted per call, torch.long result
# %% [span_corruption]
import itertools


def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    pairs = list(zip(tokens.tolist(), noise_mask.tolist()))

    def build(drop_noise):
        runs = [(flag, [t for t, _ in grp]) for flag, grp in itertools.groupby(pairs, key=lambda tm: tm[1])]
        out, n = [], 0
        for flag, toks in runs:
            if flag == drop_noise:  # a span to replace by one sentinel
                n += 1
                out.append(vocab_size - n)
            else:
                out.extend(toks)
        return torch.tensor(out + [eos_id], dtype=torch.long)

    return build(True), build(False)
