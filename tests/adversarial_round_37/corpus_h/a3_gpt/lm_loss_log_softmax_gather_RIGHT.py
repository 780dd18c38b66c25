# expect: full marks -- log_softmax and gather instead of F.cross_entropy, the targets cast to long (so int32 ids work too; the key's F.cross_entropy raises on them), reshape-free so non-contiguous logits are fine
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    log_probs = torch.log_softmax(logits[:, :-1], dim=-1)  # (B, T - 1, V)
    targets = idx[:, 1:].long().unsqueeze(-1)  # (B, T - 1, 1)
    return -log_probs.gather(-1, targets).mean()
