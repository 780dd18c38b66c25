# expect: loses mlm_loss -- averages each row's chosen positions, then averages the rows: equal to the spec's mean over C only when every row has the same number of chosen positions (e.g. row 0 with 3 chosen, row 1 with 1: the rows get equal weight instead of each position)
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels != IGNORE_INDEX
    nll = F.cross_entropy(logits.transpose(1, 2), labels, reduction="none")  # (B, T), 0 where ignored
    per_sequence = nll.sum(dim=1) / chosen.sum(dim=1).clamp(min=1)  # each sequence's mean
    return per_sequence.mean()
