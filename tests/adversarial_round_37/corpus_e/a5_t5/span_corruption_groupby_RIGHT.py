# expect: full marks -- itertools.groupby over (is_noise, token) pairs: for the inputs every group of noise becomes the next sentinel, for the targets every group of non-noise does, whichever value the mask starts or ends with; Python lists, converted at the end; spec: "every maximal run of noise tokens (`noise_mask` True) is replaced by one sentinel, numbered in order from the left; the other tokens stay; then `eos_id` is appended" and "the same with `~noise_mask`" for the targets
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    import itertools

    pairs = list(zip(noise_mask.tolist(), tokens.tolist()))

    def replace_runs(drop):  # drop: the mask value whose runs become sentinels
        out, n = [], 0
        for value, group in itertools.groupby(pairs, key=lambda pair: pair[0]):
            if value == drop:
                out.append(vocab_size - 1 - n)
                n += 1
            else:
                out.extend(token for _, token in group)
        return torch.tensor(out + [eos_id], dtype=torch.long)

    return replace_runs(True), replace_runs(False)
