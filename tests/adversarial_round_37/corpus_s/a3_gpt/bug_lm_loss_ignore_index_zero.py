# expect: loses lm_loss -- `ignore_index=0` copied from a padded-batch recipe (pad id 0): every prediction whose target is token 0 is left out of the mean, where the spec averages over all B(T-1) predictions; torch.manual_seed(0), logits randn(1, 3, 4), idx [[1, 0, 2]]: key 0.7614, answer 1.0768; no target 0 (idx [[1, 3, 2]]), or uniform logits as in the visible test: equal
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    V = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape(-1, V), idx[:, 1:].reshape(-1), ignore_index=0)
