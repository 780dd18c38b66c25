# expect: loses span_corruption -- appends EOS only when the sequence does not already end with it, so tokens ending in eos_id (or a target whose last kept token is eos_id) get no EOS; spec: "every maximal run of noise tokens ... is replaced by one sentinel ...; the other tokens stay; then eos_id is appended"
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def sentinelise(mask):
        out, sentinel, prev = [], vocab_size - 1, False
        for tok, m in zip(tokens.tolist(), mask.tolist()):
            if m and not prev:
                out.append(sentinel)
                sentinel -= 1
            elif not m:
                out.append(tok)
            prev = m
        if not out or out[-1] != eos_id:  # do not end with two EOS
            out.append(eos_id)
        return torch.tensor(out, dtype=torch.long)

    return sentinelise(noise_mask), sentinelise(~noise_mask)
