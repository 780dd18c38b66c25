# expect: loses mlm_loss -- averages each sequence's chosen positions, then the sequences: wrong when rows have different numbers of chosen positions, e.g. labels = [[3, 1, -100], [2, -100, -100]] with random logits (2, 3, 5)
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    B, T, V = logits.shape
    per_token = F.cross_entropy(logits.reshape(B * T, V), labels.reshape(B * T), reduction="none").view(B, T)
    chosen = (labels != IGNORE_INDEX).to(logits.dtype)
    per_row = (per_token * chosen).sum(dim=1) / chosen.sum(dim=1)  # each sequence's mean
    return per_row.nanmean()  # rows without a chosen position do not count
