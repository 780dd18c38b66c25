# expect: loses lm_loss -- "Return the mean cross-entropy over all predictions that have a target": every position t <= T-2 has the target idx[b, t+1], whatever its id, but this loss passes ignore_index=0 (token 0 taken for padding), so every prediction whose target is token 0 is dropped from the sum and from the count; the visible tests never predict a 0 with non-uniform logits
# %% [lm_loss]
PAD_ID = 0  # the padding token: its predictions do not count


def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    V = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape(-1, V), idx[:, 1:].reshape(-1), ignore_index=PAD_ID)
