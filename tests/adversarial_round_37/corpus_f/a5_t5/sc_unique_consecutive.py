# expect: loses span_corruption -- marks the run to replace with -1 and collapses runs with torch.unique_consecutive, which also collapses repeated equal tokens that are kept ("very very" -> "very", "1 1" in the targets' noise spans): the visible example has distinct ids; spec: "every maximal run of noise tokens (noise_mask True) is replaced by one sentinel ...; the other tokens stay"
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def collapse(mask):
        marked = torch.where(mask, torch.full_like(tokens, -1), tokens)
        runs = torch.unique_consecutive(marked)  # a run of -1 becomes a single -1
        is_span = runs == -1
        sentinels = vocab_size - torch.cumsum(is_span.long(), 0)  # vocab_size - 1, vocab_size - 2, ...
        return torch.cat([torch.where(is_span, sentinels, runs), runs.new_tensor([eos_id])])

    return collapse(noise_mask), collapse(~noise_mask)
