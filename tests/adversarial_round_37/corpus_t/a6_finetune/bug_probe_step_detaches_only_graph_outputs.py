# expect: loses probe_step  -- the features are cut off only when they carry a graph (features.grad_fn is not None), so a leaf that requires grad goes into the probe as it is and backward() fills its .grad; part 4 says no gradient may flow back into the features, and that the tests pass leaves as well as outputs of a computation; features = toy_features(64, 8, 3)[0].requires_grad_(True) (a leaf): the key leaves features.grad None, the answer fills it (the probe's step and the loss: equal)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    if features.grad_fn is not None:  # features that kept the encoder's graph: cut them off from it
        features = features.detach()
    loss = F.cross_entropy(probe(features), labels)  # the mean over the batch
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
