# expect: full marks -- F.cross_entropy in its (B, V, T - 1) form: the class axis moved to 1 by a transpose (a non-contiguous view), targets (B, T - 1), no flattening
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    return F.cross_entropy(logits[:, :-1].transpose(1, 2), idx[:, 1:])
