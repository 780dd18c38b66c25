# expect: full marks -- picks the chosen positions by their indices (nonzero) and writes the cross-entropy as logsumexp(row) - row[target], averaged over those positions only: the ignored positions are never read, so no value there (inf, NaN) can reach the loss or its gradient; spec: "Return the mean cross-entropy over the **chosen** positions only, those whose label is not `IGNORE_INDEX`" and "Return a scalar tensor that training can differentiate"
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    b, t = (labels != IGNORE_INDEX).nonzero(as_tuple=True)  # the chosen positions
    rows = logits[b, t]  # (N, V)
    targets = labels[b, t]  # (N,)
    nll = torch.logsumexp(rows, dim=-1) - rows.gather(1, targets.unsqueeze(1)).squeeze(1)
    return nll.mean()
