# expect: full marks -- style: the probe's own gradients set to None by hand (for p in probe.parameters(): p.grad = None) instead of optimizer.zero_grad(), the loss by log_softmax and gather, features cut off with torch.Tensor.detach(features), the float by float()
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    for param in probe.parameters():
        param.grad = None
    cached = torch.Tensor.detach(features)
    log_probs = torch.log_softmax(probe(cached), dim=-1)
    loss = -log_probs.gather(1, labels.reshape(-1, 1).long()).mean()
    loss.backward()
    optimizer.step()
    return float(loss.detach())
