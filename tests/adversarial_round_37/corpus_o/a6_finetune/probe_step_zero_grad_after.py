# expect: loses probe_step — clears the gradients after the optimizer step (to 'leave the probe clean') instead of before back-propagating, so a gradient left by anything that ran backward() through the probe before the step is added to this step's; the spec: 'the gradients ... of anything that ran backward() through the probe before your step, must not add up with this one: clear them before you back-propagate'; the visible loop only ever follows its own steps; input: nn.Linear(8, 3), SGD(lr=0.5), a stray probe(features).sum().backward() before the step -> weights after the step differ from the key's (max abs diff ~93: the stray gradient of probe(features).sum() is added)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # leave no gradient behind for the next step
    return float(loss)
