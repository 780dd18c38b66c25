# expect: loses lm_loss -- passes ignore_index=0 to F.cross_entropy ('id 0 is padding in most vocabularies'), so every prediction whose target is token 0 is dropped from the sum and from the count; the visible tests' targets are 1, 2 and, in the uniform-logits test, any ids with every cross-entropy equal to ln V, so they pass; breaks 'Return the mean cross-entropy over all predictions that have a target', L = -1/(B(T-1)) sum_b sum_{t=0}^{T-2} ...; input: idx = [[3, 0, 0, 2]], logits = randn(1, 4, 5) -> the file averages one cross-entropy instead of three (differs from the key by ~1)
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    V = logits.shape[-1]
    predictions = logits[:, :-1].reshape(-1, V)  # positions 0 .. T-2
    targets = idx[:, 1:].reshape(-1)  # tokens 1 .. T-1
    return F.cross_entropy(predictions, targets, ignore_index=0)  # id 0 is padding: it must not count
