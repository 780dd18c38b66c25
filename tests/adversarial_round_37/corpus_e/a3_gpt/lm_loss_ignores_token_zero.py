# expect: loses lm_loss -- passes ignore_index=0 to F.cross_entropy (as if id 0 were padding), so every target equal to token 0 is dropped from the sum and from the count; the visible tests pass (their first target is 1, and with uniform logits every term is ln V anyway); spec: "Return the mean cross-entropy over all predictions that have a target, L = -1/(B(T-1)) sum_b sum_{t=0}^{T-2} log softmax(logits[b, t])_{idx[b, t+1]}"
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    V = logits.shape[-1]
    predictions = logits[:, :-1].reshape(-1, V)  # (B * (T - 1), V): positions 0 .. T-2
    targets = idx[:, 1:].reshape(-1)  # (B * (T - 1),): tokens 1 .. T-1
    return F.cross_entropy(predictions, targets, ignore_index=0)  # id 0 is padding
