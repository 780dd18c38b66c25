# expect: loses probe_step (the gradients are cleared after the step, the tidy-up order, not before backward: a probe whose parameters already hold a gradient when the step begins (the caller ran backward through it) takes a step with that gradient added: SGD lr 0.5, probe.weight.grad preset to ones: the weights after the step differ by 0.5 everywhere; successive calls that start from clean gradients (the visible tests) agree)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # clean up for the next step
    return loss.item()
