# expect: loses probe_step -- the gradients are cleared after the step (backward, step, zero_grad) instead of before the backward, so the gradients left by anything that ran backward() through the probe before the call add up with this step's; the spec: "the gradients of earlier steps, or of anything that ran backward() through the probe before your step, must not add up with this one"; torch.manual_seed(1), nn.Linear(8, 3), SGD lr 0.5, toy_features(64, 8, 3), a prior `probe(features).sum().backward()`: max abs diff of the weight after the step vs key 93.3; consecutive calls of probe_step alone (the visible tests): equal
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()  # leave clean gradients for the next step
    return loss.item()
