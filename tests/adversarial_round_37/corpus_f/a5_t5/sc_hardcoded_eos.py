# expect: loses span_corruption -- appends the module constant EOS_ID instead of the eos_id argument, so any other eos_id is ignored (the visible test uses the default); spec: "inputs: ... then eos_id is appended; targets: ... then eos_id is appended" with the signature span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID)
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def replace_runs(mask):
        out, sentinel, inside = [], vocab_size - 1, False
        for token, m in zip(tokens.tolist(), mask.tolist()):
            if m and not inside:  # a run starts: one sentinel for all of it
                out.append(sentinel)
                sentinel -= 1
            elif not m:
                out.append(token)
            inside = m
        return torch.tensor(out + [EOS_ID], dtype=torch.long)

    return replace_runs(noise_mask), replace_runs(~noise_mask)
