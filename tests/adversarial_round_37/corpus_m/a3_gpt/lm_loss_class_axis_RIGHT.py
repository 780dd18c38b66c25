# expect: full marks -- F.cross_entropy on (B, V, T-1) logits (class axis 1, via transpose) and (B, T-1) targets: the same mean over all B(T-1) predictions, no reshape, works on non-contiguous logits, gradients equal
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    return F.cross_entropy(logits[:, :-1].transpose(1, 2), idx[:, 1:])  # (B, V, T-1) against (B, T-1)
