# expect: full marks -- picks the chosen (b, t) pairs with nonzero, log-softmaxes only their rows and gathers the label's log-probability: the mean over exactly the chosen positions, whatever the other logits (even inf/NaN there), gradients equal the key's
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    b, t = (labels != IGNORE_INDEX).nonzero(as_tuple=True)  # the chosen positions
    log_probs = logits[b, t].log_softmax(dim=-1)  # (N, V)
    return -log_probs.gather(1, labels[b, t].unsqueeze(1)).mean()
