# expect: full marks (log_softmax at every position, the target's log-probability gathered with the ignored labels clamped to 0, ignored positions replaced by 0 with torch.where (not multiplied), summed and divided by the count of chosen positions)
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels != IGNORE_INDEX
    nll = -torch.log_softmax(logits, dim=-1).gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)  # (B, T)
    return torch.where(chosen, nll, 0.0).sum() / chosen.sum()
