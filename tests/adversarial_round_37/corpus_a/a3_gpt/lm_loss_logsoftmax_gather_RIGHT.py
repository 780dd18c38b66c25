# expect: full marks -- log_softmax in float64 + gather of the shifted targets, mean, cast back to the logits' dtype
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    logp = torch.log_softmax(logits[:, :-1].double(), dim=-1)  # (B, T-1, V): positions 0 .. T-2
    target = idx[:, 1:].unsqueeze(-1)  # (B, T-1, 1): tokens 1 .. T-1
    nll = -logp.gather(-1, target).squeeze(-1)  # (B, T-1)
    return nll.mean().to(logits.dtype)
