# expect: loses probe_step -- clips the gradient norm to 10 before the step ("for stability"), so whenever the mean cross-entropy's gradient is larger (e.g. features scaled by 100) the step is not the optimizer's step on that gradient: SGD moves less than lr * grad
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(probe.parameters(), max_norm=10.0)  # no exploding steps
    optimizer.step()
    return loss.item()
