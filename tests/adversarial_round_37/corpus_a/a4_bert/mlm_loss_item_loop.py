# expect: loses mlm_loss  -- averages per-position .item() values in Python and rebuilds torch.tensor(mean): right value, but float32 and cut off from the graph (no gradient reaches logits); spec: "Return a scalar tensor that training can differentiate"
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    total, count = 0.0, 0
    for b, t in (labels != IGNORE_INDEX).nonzero().tolist():
        log_probs = torch.log_softmax(logits[b, t], dim=-1)
        total += -log_probs[labels[b, t]].item()
        count += 1
    return torch.tensor(total / count)
