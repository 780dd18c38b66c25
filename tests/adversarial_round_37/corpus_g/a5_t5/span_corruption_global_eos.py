# expect: loses span_corruption -- appends the global EOS_ID instead of the eos_id argument (right only with the default)
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def replace_spans(mask):
        out, sentinel, inside = [], vocab_size - 1, False
        for token, noisy in zip(tokens.tolist(), mask.tolist()):
            if noisy and not inside:
                out.append(sentinel)
                sentinel -= 1
            elif not noisy:
                out.append(token)
            inside = noisy
        return torch.tensor(out + [EOS_ID], dtype=torch.long)

    return replace_spans(noise_mask), replace_spans(~noise_mask)
