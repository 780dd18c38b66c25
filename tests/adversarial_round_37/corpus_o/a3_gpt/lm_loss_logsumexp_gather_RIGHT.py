# expect: full marks — lm_loss: the loss written out as logsumexp(logits) - logits[target] with gather, summed and divided by B * (T - 1) explicitly (no F.cross_entropy)
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    pred = logits[:, :-1]
    target = idx[:, 1:]
    nll = torch.logsumexp(pred, dim=-1) - pred.gather(-1, target.unsqueeze(-1)).squeeze(-1)
    return nll.sum() / target.numel()
