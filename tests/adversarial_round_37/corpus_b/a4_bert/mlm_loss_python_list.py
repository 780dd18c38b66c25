# expect: loses mlm_loss -- sums per-position losses as Python floats (.item()) and returns torch.tensor(mean): right value, no gradient; spec: "Return a scalar tensor that training can differentiate."
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    log_probs = torch.log_softmax(logits, dim=-1)
    losses = []
    for b, t in (labels != IGNORE_INDEX).nonzero().tolist():
        losses.append(-log_probs[b, t, labels[b, t]].item())
    return torch.tensor(sum(losses) / len(losses), dtype=logits.dtype)
