# expect: loses mlm_loss -- averages each row's chosen positions, then the rows: wrong when rows have different numbers of chosen positions (and NaN for a row with none)
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    per_position = F.cross_entropy(logits.transpose(1, 2), labels, reduction="none")  # (B, T), 0 where ignored
    chosen = (labels != IGNORE_INDEX).float()
    per_row = per_position.sum(dim=1) / chosen.sum(dim=1)  # mean over each sequence's chosen positions
    return per_row.mean()
