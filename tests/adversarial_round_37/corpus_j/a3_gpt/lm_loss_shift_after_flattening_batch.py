# expect: loses lm_loss -- flattens (B, T) first and shifts the flat stream, so the last position of row b predicts the first token of row b+1 and the mean is over B*T-1 terms: logits = randn(2, 3, 5), idx = [[1, 2, 3], [4, 0, 1]] differs from the per-row loss
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    V = logits.size(-1)
    flat_logits = logits.reshape(-1, V)  # (B * T, V)
    flat_idx = idx.reshape(-1)  # (B * T,)
    # every position predicts the token after it
    return F.cross_entropy(flat_logits[:-1], flat_idx[1:])
