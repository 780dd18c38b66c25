# expect: loses mlm_loss -- log(softmax) gathered at label 0 for ignored positions and multiplied by 0: an ignored position where class 0's probability underflows gives 0 * (-inf) = NaN
# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = (labels != IGNORE_INDEX).to(logits.dtype)  # (B, T)
    log_probs = torch.log(torch.softmax(logits, dim=-1))  # (B, T, V)
    nll = -log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)  # (B, T); label -100 read as 0
    return (nll * chosen).sum() / chosen.sum()
