# expect: full marks -- the loss written out: logsumexp of each predicting row minus the gathered target logit, averaged with torch.mean over the B * (T - 1) predictions (no F.cross_entropy)
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    pred = logits.narrow(1, 0, logits.shape[1] - 1)  # (B, T - 1, V)
    target = idx.narrow(1, 1, idx.shape[1] - 1).unsqueeze(-1)  # (B, T - 1, 1)
    nll = torch.logsumexp(pred, dim=-1) - pred.gather(-1, target).squeeze(-1)
    return nll.mean()
