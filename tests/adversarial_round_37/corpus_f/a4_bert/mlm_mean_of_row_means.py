# expect: loses mlm_loss -- averages each sequence's chosen positions first and then the sequences, which weights a token of a row with few chosen positions more than one of a row with many (equal only when every row has as many chosen positions); spec: "L = -1/|C| sum_{(b,t) in C} log softmax(logits[b, t])_{labels[b, t]}" "the mean cross-entropy over the chosen positions only"
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    per_token = F.cross_entropy(logits.transpose(1, 2), labels, reduction="none")  # (B, T), 0 where ignored
    chosen = labels != IGNORE_INDEX
    per_row = per_token.sum(dim=1) / chosen.sum(dim=1)  # each sequence's mean
    return per_row[chosen.any(dim=1)].mean()  # then the mean over the sequences that have chosen positions
