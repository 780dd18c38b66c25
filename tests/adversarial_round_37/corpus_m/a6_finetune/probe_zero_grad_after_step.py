# expect: loses probe_step -- clears the gradients after the step (backward, step, zero_grad) instead of before back-propagating, so whatever ran backward() through the probe before the first call is added into this step's gradient; breaks 'the gradients of earlier steps, or of anything that ran backward() through the probe before your step, must not add up with this one: clear them (optimizer.zero_grad()) before you back-propagate'; input: probe = nn.Linear(8,3), probe(features).sum().backward() first, then probe_step with SGD lr 0.5 -> weights after the step differ from the key's (the visible tests start from a fresh probe)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    logits = probe(features.detach())  # cached features: no gradient flows back into them
    loss = F.cross_entropy(logits, labels)  # the mean over the batch
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # ready for the next step
    return loss.item()
