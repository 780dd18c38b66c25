# expect: loses mlm_loss -- chosen positions found as labels > 0, so a chosen position whose target id is 0 is left out: labels = [[0, 2]] with non-uniform logits = randn(1, 2, 5) gives position 1's loss alone
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels > 0  # IGNORE_INDEX is negative
    log_probs = torch.log_softmax(logits[chosen], dim=-1)
    return -log_probs.gather(-1, labels[chosen].unsqueeze(-1)).mean()
