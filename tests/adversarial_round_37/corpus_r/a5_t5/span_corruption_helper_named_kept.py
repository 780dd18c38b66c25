# expect: full marks -- (relabelled in stop 69, when the course's read-only cells stopped binding module-level names: the answer is right) was: a module-level helper named `kept`, which part 4's read-only test cell rebinds (`kept = out[1:-1][...]`): every visible call of span_corruption comes before that cell, and after the notebook has run top to bottom span_corruption raises TypeError; tokens arange(10, 16), mask [F, T, T, F, F, T], vocab 100 after every cell: key ([10, 99, 13, 14, 98, 1], [99, 11, 12, 98, 15, 1]), this answer TypeError 'Tensor' object is not callable
# %% [span_corruption]
def kept(tokens, mask, vocab_size):
    """tokens with each maximal run of mask replaced by one sentinel (vocab_size - 1, vocab_size - 2, ...)."""
    previous = torch.cat([mask.new_zeros(1), mask[:-1]])
    first = mask & ~previous  # the first token of each run
    sentinels = vocab_size - torch.cumsum(first.long(), 0)
    return torch.where(first, sentinels, tokens)[~(mask & previous)]


def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    eos = tokens.new_tensor([eos_id])
    return torch.cat([kept(tokens, noise_mask, vocab_size), eos]), torch.cat([kept(tokens, ~noise_mask, vocab_size), eos])
