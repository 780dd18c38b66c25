# expect: loses probe_step -- clears the gradients after optimizer.step() instead of before backward, so a gradient left on the probe by an earlier backward outside probe_step is added into this step: probe(features).sum().backward() then probe_step(SGD lr=0.5) moves the weights by lr * (that gradient + the CE gradient)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # ready for the next step
    return float(loss.detach())
