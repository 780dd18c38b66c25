# expect: full marks -- log_softmax on the first T-1 positions, gather of the shifted targets, explicit negative mean
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    log_probs = torch.log_softmax(logits[:, :-1], dim=-1)  # (B, T-1, V)
    picked = log_probs.gather(-1, idx[:, 1:].unsqueeze(-1)).squeeze(-1)  # (B, T-1)
    return -picked.mean()
