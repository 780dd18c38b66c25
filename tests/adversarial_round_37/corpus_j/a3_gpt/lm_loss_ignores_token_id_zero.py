# expect: loses lm_loss -- passes ignore_index=0 (habit from padded batches), so every target that is token 0 is dropped from the mean: logits = randn(1, 3, 4), idx = [[2, 0, 1]] averages one prediction instead of two
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    B, T, V = logits.shape
    inputs = logits[:, :-1, :].reshape(B * (T - 1), V)
    targets = idx[:, 1:].reshape(B * (T - 1))
    return F.cross_entropy(inputs, targets, ignore_index=0)  # id 0 is padding
