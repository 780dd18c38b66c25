# expect: loses lm_loss -- passes ignore_index=0 ('id 0 is padding'), so every prediction whose target is token 0 drops out of the mean; breaks 'Return the mean cross-entropy over all predictions that have a target' (1/(B(T-1)) over every t); input: idx=[[1,0,2]], logits=randn(1,3,4) -> key averages 2 terms, this only the one with target 2 (the visible tests use uniform logits or no 0 target)
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    V = logits.shape[-1]
    predictions = logits[:, :-1].reshape(-1, V)  # (B * (T - 1), V): positions 0 .. T-2
    targets = idx[:, 1:].reshape(-1)  # (B * (T - 1),): tokens 1 .. T-1
    return F.cross_entropy(predictions, targets, ignore_index=0)  # id 0 is padding
