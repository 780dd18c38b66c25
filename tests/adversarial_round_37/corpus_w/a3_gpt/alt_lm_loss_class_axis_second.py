# expect: full marks -- F.cross_entropy's K-dimensional form: the shifted logits as (B, V, T-1) (class axis second, a transposed view) against the (B, T-1) targets; the mean over all B(T-1) predictions, log-softmax computed stably by torch (logits offset by 100 are fine), differentiable, any batch and length, no view of a non-contiguous input
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    return F.cross_entropy(logits[:, :-1].transpose(1, 2), idx[:, 1:])
