# expect: loses span_corruption -- marks the span tokens with -1 and collapses runs with unique_consecutive, which also merges equal neighbouring ordinary tokens: tokens [7, 7, 8], noise [F, F, T], vocab 100 gives inputs [7, 99, 1] instead of [7, 7, 99, 1]
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""

    def collapse(mask):
        marked = torch.where(mask, torch.full_like(tokens, -1), tokens)
        runs = torch.unique_consecutive(marked)  # every run of -1 becomes a single -1
        is_span = runs == -1
        sentinels = vocab_size - torch.cumsum(is_span.long(), dim=0)
        out = torch.where(is_span, sentinels, runs)
        return torch.cat([out, torch.tensor([eos_id], dtype=tokens.dtype)])

    return collapse(noise_mask), collapse(~noise_mask)
