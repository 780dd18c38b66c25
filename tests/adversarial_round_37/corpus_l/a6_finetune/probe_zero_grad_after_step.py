# expect: loses probe_step -- the gradients are cleared AFTER the step ("leave clean gradients for the next call"): consecutive calls are right (the visible SGD test), but gradients that were already on the probe when the function is called (a backward() through it by the caller, or a step that failed midway) are added to this step's; breaks "the gradients of earlier steps, or of anything that ran backward() through the probe before your step, must not add up with this one: clear them (optimizer.zero_grad()) before you back-propagate"; input: probe = nn.Linear(8, 3), probe(torch.randn(5, 8)).sum().backward(), then probe_step(probe, SGD(lr=0.5), features, labels) -> the update includes the stale gradient
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # leave clean gradients for the next step
    return loss.item()
