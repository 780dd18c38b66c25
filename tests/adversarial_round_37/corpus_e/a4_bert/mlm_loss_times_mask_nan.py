# expect: loses mlm_loss -- computes a cross-entropy at every position (with the ignored labels clamped to 0) and multiplies by the 0/1 mask: where an ignored position's logit for id 0 is -inf (a model that never predicts [PAD] sets logits[..., PAD_ID] = -inf) its cross-entropy is inf and inf * 0 = NaN, so the loss is NaN; spec: "The other positions do not count ...: for `labels = [[-100, 2, -100, 4]]` the loss is the mean of two cross-entropies ..., whatever the logits at positions 0 and 2"
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = (labels != IGNORE_INDEX).to(logits.dtype)  # (B, T): 1 at the chosen positions
    log_probs = torch.log_softmax(logits, dim=-1)
    nll = -log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)  # (B, T); ignored labels read id 0
    return (nll * chosen).sum() / chosen.sum()  # the ignored positions count 0
