# expect: full marks -- one pass per output over Python lists, a sentinel counter per output, edges (a span at position 0 or at the end, all noise, no noise) handled by the run logic
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    ids, flags = tokens.tolist(), [bool(f) for f in noise_mask.tolist()]

    def collapse(drop):
        out, next_sentinel, inside = [], vocab_size - 1, False
        for token, flag in zip(ids, flags):
            if flag == drop:
                if not inside:
                    out.append(next_sentinel)
                    next_sentinel -= 1
                inside = True
            else:
                out.append(token)
                inside = False
        out.append(eos_id)
        return torch.tensor(out, dtype=torch.long)

    return collapse(True), collapse(False)
