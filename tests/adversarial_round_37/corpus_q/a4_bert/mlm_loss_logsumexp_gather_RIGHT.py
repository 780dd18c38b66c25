# expect: full marks -- style: no boolean indexing: logits shifted by their detached row maximum, logsumexp minus the gathered target logit at every position (targets of ignored positions clamped to 0), then torch.where to zero the ignored ones (where, not a product, so that inf or NaN logits there cannot leak), summed and divided by the count
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    keep = labels != IGNORE_INDEX
    safe = torch.where(keep, labels, torch.zeros_like(labels)).long()
    clean = torch.where(keep[..., None], logits, torch.zeros_like(logits))
    clean = clean - clean.amax(dim=-1, keepdim=True).detach()  # shift by the row's maximum: exact for the top logit
    per_position = torch.logsumexp(clean, dim=-1) - clean.gather(-1, safe[..., None]).squeeze(-1)
    per_position = torch.where(keep, per_position, torch.zeros_like(per_position))
    return per_position.sum() / keep.sum()
