# expect: loses mlm_loss -- sums per-position losses as Python floats (.item()) and returns torch.tensor(total / n): right value, but no gradient reaches the logits
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    total, n = 0.0, 0
    B, T = labels.shape
    for b in range(B):
        for t in range(T):
            if labels[b, t] != IGNORE_INDEX:
                total += F.cross_entropy(logits[b, t].unsqueeze(0), labels[b, t].unsqueeze(0)).item()
                n += 1
    return torch.tensor(total / n)
