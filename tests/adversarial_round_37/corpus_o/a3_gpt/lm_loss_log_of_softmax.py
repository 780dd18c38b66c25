# expect: loses lm_loss — log(softmax(logits)) instead of a log-softmax: the probability of an unlikely target underflows to 0 in float32 and the loss becomes inf (its gradient NaN), where the true cross-entropy is finite; input: logits = 60 * randn(2, 6, 10) float32, idx = randint(0, 10, (2, 6)) -> file loss inf, key loss finite (93.3)
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    probs = torch.softmax(logits[:, :-1], dim=-1)  # (B, T-1, V)
    picked = probs.gather(-1, idx[:, 1:].unsqueeze(-1)).squeeze(-1)  # probability of each next token
    return -torch.log(picked).mean()
