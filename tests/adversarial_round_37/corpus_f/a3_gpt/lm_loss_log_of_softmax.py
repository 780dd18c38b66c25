# expect: loses lm_loss -- takes log(softmax(...)) of the target's probability instead of a log-softmax: once the target's logit is ~100 below the row's max the probability underflows to 0 and the loss is inf instead of the (finite) cross-entropy; spec: "L = -1/(B(T-1)) sum_b sum_t log softmax(logits[b, t])_{idx[b, t+1]}"
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    probs = torch.softmax(logits[:, :-1], dim=-1)  # (B, T-1, V): positions 0 .. T-2
    target_probs = probs.gather(-1, idx[:, 1:, None]).squeeze(-1)  # (B, T-1): the next tokens' probabilities
    return -torch.log(target_probs).mean()
