# expect: loses mlm_loss -- selects the chosen positions with labels > 0, so a chosen position whose label is class 0 is dropped: logits = randn(1, 3, 4), labels = [[0, -100, 3]] averages one cross-entropy instead of two
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels > 0  # IGNORE_INDEX is negative
    log_probs = F.log_softmax(logits[chosen], dim=-1)  # (N, V)
    return F.nll_loss(log_probs, labels[chosen])
