# expect: full marks -- a plain Python loop: a sentinel (vocab_size - 1, - 2, ...) at the first token of each run of the given mask, the run's other tokens dropped, the rest kept, EOS appended; called with noise_mask for the inputs and ~noise_mask for the targets; any mask (starting or ending with either, all True, all False, empty) works
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def replace_runs(mask):
        out, sentinel, inside = [], vocab_size - 1, False
        for token, hidden in zip(tokens.tolist(), mask.tolist()):
            if hidden and not inside:
                out.append(sentinel)
                sentinel -= 1
            elif not hidden:
                out.append(token)
            inside = hidden
        return torch.tensor(out + [eos_id], dtype=torch.long)

    return replace_runs(noise_mask), replace_runs(~noise_mask)
