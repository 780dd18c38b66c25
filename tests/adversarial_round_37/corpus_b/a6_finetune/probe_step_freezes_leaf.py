# expect: loses probe_step -- calls features.requires_grad_(False) on a leaf (detaching only non-leaves), which changes the caller's tensor; spec: "features.detach() cuts them off with a new tensor, while features.detach_() or features.requires_grad_(False) would change the caller's tensor" and the tests check "that they are as they were"
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    if features.is_leaf:
        features.requires_grad_(False)  # a cached leaf: just stop tracking it
    else:
        features = features.detach()  # requires_grad_ fails on non-leaves
    optimizer.zero_grad()
    loss = F.cross_entropy(probe(features), labels)
    loss.backward()
    optimizer.step()
    return loss.item()
