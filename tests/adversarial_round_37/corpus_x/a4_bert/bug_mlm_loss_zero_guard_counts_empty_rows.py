# expect: loses mlm_loss -- "The other positions do not count, not even in the number you divide by": the loss is summed per row and divided by the rows' counts of chosen positions summed after a guard against empty rows, `counts.clamp(min=1).sum()`; with at least one chosen position in every row (both visible tests) that is |C|, but each row with no chosen position (common with short rows at 15%) adds 1 to the denominator: labels [[-100, 2, -100, 4], [-100, -100, -100, -100]] divide the two cross-entropies by 3
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels != IGNORE_INDEX  # (B, T)
    log_probs = torch.log_softmax(logits, dim=-1)
    picked = log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)  # (B, T)
    row_sums = torch.where(chosen, -picked, torch.zeros_like(picked)).sum(dim=1)  # (B,)
    counts = chosen.sum(dim=1)  # (B,)
    return row_sums.sum() / counts.clamp(min=1).sum()  # no division by zero for a row without labels
