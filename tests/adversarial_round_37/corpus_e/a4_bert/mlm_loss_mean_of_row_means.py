# expect: loses mlm_loss -- averages each row's chosen cross-entropies, then averages the rows that have any: a row with 1 chosen position weighs as much as a row with 20, which is not the mean over C; the visible tests pass (one row, or equal cross-entropies everywhere); spec: "L = -1/|C| sum_{(b, t) in C} log softmax(logits[b, t])_{labels[b, t]}, C = {(b, t) : labels[b, t] != -100}"
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    per_token = F.cross_entropy(logits.transpose(1, 2), labels, reduction="none")  # (B, T), 0 where ignored
    chosen = (labels != IGNORE_INDEX).to(per_token.dtype)
    per_row = per_token.sum(dim=1) / chosen.sum(dim=1).clamp(min=1)  # each sequence's mean
    has_any = chosen.sum(dim=1) > 0
    return per_row[has_any].mean()  # the mean over the sequences
