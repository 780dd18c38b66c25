# expect: loses lm_loss -- takes log(softmax(...)) instead of log_softmax: a target whose probability underflows in float32 gives an infinite loss where the formula is finite; spec: "L = -1/(B(T-1)) sum log softmax(logits[b, t])_{idx[b, t+1]}"
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    probs = torch.softmax(logits[:, :-1], dim=-1)  # (B, T-1, V)
    targets = idx[:, 1:].unsqueeze(-1)  # (B, T-1, 1)
    p_target = probs.gather(-1, targets).squeeze(-1)  # (B, T-1)
    return -torch.log(p_target).mean()
