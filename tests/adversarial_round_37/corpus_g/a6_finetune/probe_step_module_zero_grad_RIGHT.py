# expect: full marks -- zeroes through probe.zero_grad() (the optimizer's parameters are exactly the probe's), sums the cross-entropy and divides by B, cuts the features off with .detach()
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    probe.zero_grad(set_to_none=True)
    cached = features.detach()
    loss = F.cross_entropy(probe(cached), labels, reduction="sum") / cached.shape[0]
    loss.backward()
    optimizer.step()
    return float(loss.detach())
