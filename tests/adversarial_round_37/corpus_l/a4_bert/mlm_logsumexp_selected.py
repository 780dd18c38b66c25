# expect: full marks -- selects the chosen positions first (labels != IGNORE_INDEX), then cross-entropy written out as logsumexp(row) - row[target], averaged over the chosen positions only; nothing at ignored positions enters the value or the gradient
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels != IGNORE_INDEX
    rows, targets = logits[chosen], labels[chosen]  # (N, V), (N,)
    return (torch.logsumexp(rows, dim=-1) - rows.gather(1, targets[:, None])[:, 0]).mean()
