# expect: loses lm_loss -- flattens (B*T) first and then shifts by one, so the last position of row b is scored against the first token of row b+1 (right only for B = 1)
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    V = logits.size(-1)
    flat_logits = logits.reshape(-1, V)  # (B*T, V)
    flat_idx = idx.reshape(-1)  # (B*T,)
    return F.cross_entropy(flat_logits[:-1], flat_idx[1:])  # position t predicts token t+1
