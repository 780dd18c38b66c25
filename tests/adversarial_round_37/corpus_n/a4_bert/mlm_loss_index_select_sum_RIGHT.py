# expect: full marks -- flattens the batch, finds the chosen positions with torch.nonzero, index_selects their logit rows and divides F.cross_entropy(..., reduction="sum") by their number; only the chosen rows enter the computation (so anything at the ignored positions, NaN included, changes nothing and gets gradient 0); same value, dtype and gradient as the key for B = 1 and several, any pattern of chosen positions, float32 and float64, non-contiguous logits
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    flat_labels = labels.reshape(-1)
    where = torch.nonzero(flat_labels != IGNORE_INDEX).squeeze(1)  # the chosen positions, flattened
    rows = logits.reshape(-1, logits.shape[-1]).index_select(0, where)  # (|C|, V)
    return F.cross_entropy(rows, flat_labels[where], reduction="sum") / where.numel()
