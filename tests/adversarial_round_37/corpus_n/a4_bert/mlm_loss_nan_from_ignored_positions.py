# expect: loses mlm_loss -- computes the log-probability of every position (labels -100 clamped to 0 for the gather) and zeroes the ignored ones by multiplying with the mask; 0 * NaN is NaN, so a NaN or an infinity in the logits of an ignored position (whatever the model wrote there) turns the loss and every gradient into NaN; the visible tests put -1e4 there and pass; breaks 'for labels = [[-100, 2, -100, 4]] the loss is the mean of two cross-entropies ... whatever the logits at positions 0 and 2' ('The other positions do not count'); input: the visible example with logits[0, 0, 0] = nan -> nan (key: 0.0)
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels != IGNORE_INDEX  # (B, T)
    log_probs = torch.log_softmax(logits, dim=-1)  # (B, T, V)
    picked = log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)  # -100 -> any valid index
    return -(picked * chosen).sum() / chosen.sum()  # the ignored positions count 0
