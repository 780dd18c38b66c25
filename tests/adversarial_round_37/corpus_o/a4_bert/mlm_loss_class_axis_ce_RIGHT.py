# expect: full marks — mlm_loss: F.cross_entropy on the (B, V, T) transpose with the (B, T) labels and its default ignore_index=-100 (mean over the non-ignored positions), no boolean indexing
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    return F.cross_entropy(logits.transpose(1, 2), labels, ignore_index=IGNORE_INDEX)
