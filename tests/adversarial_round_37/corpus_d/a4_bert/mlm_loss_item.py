# expect: loses mlm_loss -- the loss goes through .item() and comes back as a new leaf tensor, so no gradient reaches the logits; spec: "Return a scalar tensor that training can differentiate."
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    per_token = F.cross_entropy(logits.transpose(1, 2), labels, reduction="none")  # (B, T), 0 where ignored
    n_chosen = int((labels != IGNORE_INDEX).sum())
    return torch.tensor(per_token.sum().item() / n_chosen, dtype=logits.dtype, requires_grad=True)
