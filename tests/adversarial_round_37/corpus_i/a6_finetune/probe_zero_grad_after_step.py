# expect: loses probe_step -- zero_grad() after step() instead of before backward(): a gradient left on the probe by an earlier backward() (e.g. probe(features).sum().backward() before the call) is added into the first step
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # clean up for the next step
    return float(loss)
