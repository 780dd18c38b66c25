# expect: full marks -- style: pure Python over tolist() with itertools.groupby on the mask, one sentinel per run, the result back with torch.tensor(..., dtype=torch.long)
# %% [span_corruption]
import itertools


def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    ids = tokens.tolist()
    flags = [bool(f) for f in noise_mask.tolist()]

    def collapse(replace_when):
        out, sentinel = [], vocab_size - 1
        for flag, run in itertools.groupby(zip(flags, ids), key=lambda pair: pair[0]):
            if flag == replace_when:
                out.append(sentinel)
                sentinel -= 1
            else:
                out.extend(token for _, token in run)
        out.append(int(eos_id))
        return torch.tensor(out, dtype=torch.long)

    return collapse(True), collapse(False)
