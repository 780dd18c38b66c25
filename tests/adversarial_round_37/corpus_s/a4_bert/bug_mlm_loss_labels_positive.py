# expect: loses mlm_loss -- the chosen positions taken as `labels > 0` (ids are positive, padding is 0) instead of `labels != IGNORE_INDEX`: a chosen position whose label is id 0 is dropped; the spec: C = {(b, t) : labels[b, t] != -100}; torch.manual_seed(0), logits randn(1, 3, 5), labels [[0, 2, -100]]: key 0.6520, answer 0.8127; labels without 0, or uniform logits (the visible test's label 0): equal
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels > 0
    return F.cross_entropy(logits[chosen], labels[chosen])
