# expect: full marks -- one pass over the tokens in Python, grouping maximal runs with itertools.groupby on the mask's values; a run of the masked kind becomes the next sentinel (vocab_size - 1, - 2, ...), the others are copied; EOS appended; the tensors built from lists in torch.long
# %% [span_corruption]
import itertools


def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    pairs = list(zip(tokens.tolist(), noise_mask.tolist()))

    def build(replace_noise):
        out, sentinel = [], vocab_size - 1
        for is_noise, run in itertools.groupby(pairs, key=lambda tm: bool(tm[1])):
            if is_noise == replace_noise:
                out.append(sentinel)
                sentinel -= 1
            else:
                out.extend(t for t, _ in run)
        out.append(int(eos_id))
        return torch.tensor(out, dtype=torch.long)

    return build(True), build(False)
