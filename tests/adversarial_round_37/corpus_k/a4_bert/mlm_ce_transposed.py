# expect: full marks -- F.cross_entropy on the (B, V, T) layout (logits.transpose(1, 2)) with the (B, T) labels: the default ignore_index=-100 drops the unchosen positions from both the sum and the count, exactly the spec's mean over C, and stays differentiable
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    return F.cross_entropy(logits.transpose(1, 2), labels, ignore_index=IGNORE_INDEX)
