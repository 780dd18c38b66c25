# expect: loses mlm_loss -- averages each row's chosen positions and then the rows, which weights rows with few chosen positions more than the spec's mean over all chosen positions: labels [[1, 2, 3], [4, -100, -100]] with random logits differs
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    per_position = F.cross_entropy(logits.transpose(1, 2), labels, reduction="none")  # (B, T), 0 where ignored
    chosen = (labels != IGNORE_INDEX).to(per_position.dtype)
    per_row = per_position.sum(dim=1) / chosen.sum(dim=1).clamp(min=1)  # each sequence's mean
    has_any = chosen.sum(dim=1) > 0
    return per_row[has_any].mean()
