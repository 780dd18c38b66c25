# expect: loses span_corruption -- the masked tokens are replaced by -1 and runs are collapsed with torch.unique_consecutive on the token values, which also collapses runs of EQUAL kept tokens ("the the", repeated padding ids); right only while neighbouring kept tokens differ, as in the visible example (all ids distinct); breaks "the other tokens stay" / "the noise tokens stay"; input: span_corruption(torch.tensor([5, 5, 6]), torch.tensor([False, False, True]), 100) -> inputs [5, 99, 1] (spec: [5, 5, 99, 1])
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def collapse(mask):
        marked = torch.where(mask, torch.full_like(tokens, -1), tokens)
        runs = torch.unique_consecutive(marked)  # one -1 left per run of masked tokens
        is_sentinel = runs == -1
        sentinels = vocab_size - torch.cumsum(is_sentinel.long(), dim=0)
        return torch.cat([torch.where(is_sentinel, sentinels, runs), torch.tensor([eos_id])])

    return collapse(noise_mask), collapse(~noise_mask)
