# expect: loses lm_loss -- passes ignore_index=0 ("id 0 is padding"), so every prediction whose target is token 0 is left out of the mean; the spec averages over all B(T-1) predictions (e.g. idx [[0, 0, 3]] with random logits)
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    V = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape(-1, V), idx[:, 1:].reshape(-1), ignore_index=0)  # 0 = padding
