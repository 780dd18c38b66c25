# expect: loses probe_step -- clears the gradients after the step (backward, step, zero_grad) instead of before backward, so gradients already accumulated in the probe when the function is called (an earlier backward through it) are added into this step; spec: "the gradients of earlier steps, or of anything that ran backward() through the probe before your step, must not add up with this one: clear them (optimizer.zero_grad()) before you back-propagate"
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # ready for the next step
    return loss.item()
