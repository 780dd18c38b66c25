# expect: full marks -- span corruption in plain Python: itertools.groupby over (token, in-span) pairs yields the maximal runs in order; a run inside the spans becomes the next sentinel (vocab_size - 1, vocab_size - 2, ...: Python ints, exact for any vocab_size), any other run is copied; the same function with the mask inverted makes the targets; EOS appended; a new 1-D torch.long tensor each, built from lists (tolist reads non-contiguous inputs by their shape)
# %% [span_corruption]
from itertools import groupby


def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    pairs = list(zip(tokens.tolist(), noise_mask.tolist()))

    def corrupt(span_flag):
        out, sentinel = [], vocab_size - 1
        for in_span, run in groupby(pairs, key=lambda pair: pair[1] == span_flag):
            if in_span:
                out.append(sentinel)
                sentinel -= 1
            else:
                out.extend(token for token, _ in run)
        out.append(eos_id)
        return torch.tensor(out, dtype=torch.long)

    return corrupt(True), corrupt(False)
