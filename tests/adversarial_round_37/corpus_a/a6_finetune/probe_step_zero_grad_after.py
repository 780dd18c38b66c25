# expect: loses probe_step  -- clears the gradients after optimizer.step() instead of before backward(), so gradients left by anything that ran backward() through the probe before the step are added to this one; spec: "the gradients of earlier steps, or of anything that ran backward() through the probe before your step, must not add up with this one: clear them (optimizer.zero_grad()) before you back-propagate"
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # leave clean gradients for the next step
    return float(loss)
