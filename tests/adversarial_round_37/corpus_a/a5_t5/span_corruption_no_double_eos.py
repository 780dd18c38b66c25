# expect: loses span_corruption  -- skips appending EOS when the output already ends with eos_id (e.g. the text's last, non-noise token is EOS_ID), so inputs lose their final </s>; spec: "every maximal run of noise tokens ... is replaced by one sentinel ...; the other tokens stay; then eos_id is appended"
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def replace_runs(mask):
        out, sentinel, inside = [], vocab_size - 1, False
        for tok, m in zip(tokens.tolist(), mask.tolist()):
            if m and not inside:
                out.append(sentinel)
                sentinel -= 1
            elif not m:
                out.append(tok)
            inside = m
        if not out or out[-1] != eos_id:  # the text may already end with </s>: do not double it
            out.append(eos_id)
        return torch.tensor(out, dtype=torch.long)

    return replace_runs(noise_mask), replace_runs(~noise_mask)
