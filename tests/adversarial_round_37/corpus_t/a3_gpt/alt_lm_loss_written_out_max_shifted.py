# expect: full marks -- the cross-entropy written out: each prediction's logits shifted by their (detached) maximum, log of the sum of exponentials minus the target's shifted logit (gather with the targets cast to int64), averaged over the B (T - 1) predictions
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    predictions = logits[:, :-1]  # (B, T - 1, V): positions 0 .. T-2
    targets = idx[:, 1:].long().unsqueeze(-1)  # (B, T - 1, 1): tokens 1 .. T-1
    shifted = predictions - predictions.amax(dim=-1, keepdim=True).detach()  # the largest logit is 0
    log_normaliser = torch.log(torch.exp(shifted).sum(dim=-1))  # (B, T - 1), in [0, log V]
    target_logit = shifted.gather(-1, targets).squeeze(-1)  # (B, T - 1)
    return (log_normaliser - target_logit).mean()
