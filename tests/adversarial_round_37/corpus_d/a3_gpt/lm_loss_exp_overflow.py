# expect: loses lm_loss -- the log-softmax is computed as logits - log(sum(exp(logits))) without subtracting the row maximum, so logits above ~88 overflow to inf and the loss becomes inf/NaN; spec: "Return the mean cross-entropy over all predictions that have a target, $-\frac{1}{B(T-1)} \sum \log \mathrm{softmax}(\text{logits}[b, t])_{\text{idx}[b, t+1]}$"
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    predictions = logits[:, :-1]  # (B, T-1, V)
    targets = idx[:, 1:]  # (B, T-1)
    log_z = torch.log(torch.exp(predictions).sum(dim=-1))  # (B, T-1)
    picked = predictions.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return (log_z - picked).mean()
