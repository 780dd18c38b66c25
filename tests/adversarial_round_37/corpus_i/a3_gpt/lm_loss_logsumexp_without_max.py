# expect: loses lm_loss -- log-softmax written as z - log(sum(exp(z))) without subtracting the max: inf/NaN once a logit exceeds ~88 in float32, e.g. logits = 100 * randn(2, 5, 7)
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    z = logits[:, :-1]  # (B, T-1, V)
    target = idx[:, 1:]  # (B, T-1)
    log_norm = torch.log(torch.exp(z).sum(dim=-1))  # (B, T-1)
    picked = z.gather(-1, target.unsqueeze(-1)).squeeze(-1)  # (B, T-1)
    return (log_norm - picked).mean()
