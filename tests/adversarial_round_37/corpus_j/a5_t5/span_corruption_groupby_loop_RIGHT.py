# expect: full marks -- pure Python: itertools.groupby over (token, is_noise) pairs, one sentinel per group of the masked kind
# %% [span_corruption]
import itertools


def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    pairs = list(zip(tokens.tolist(), noise_mask.tolist()))

    def build(replace_noise):
        out, sentinel = [], vocab_size - 1
        for is_noise, group in itertools.groupby(pairs, key=lambda pair: pair[1]):
            if is_noise == replace_noise:
                out.append(sentinel)
                sentinel -= 1
            else:
                out.extend(token for token, _ in group)
        return torch.tensor(out + [eos_id], dtype=torch.long)

    return build(True), build(False)
