# expect: loses probe_step -- calls optimizer.zero_grad() after step() (to leave clean gradients): gradients that something else accumulated in the probe before the call are added to this step's
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    logits = probe(features.detach())
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # clean up for the next step
    return loss.item()
