# expect: loses probe_step -- cuts the gradient with features.requires_grad_(False) when features is a leaf (detach() only for computed ones), which changes the CALLER's tensor: a cached leaf that required grad no longer does after the call ("check ... that they are as they were")
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    if features.is_leaf:
        features.requires_grad_(False)  # a cached leaf: no gradient for it
    else:
        features = features.detach()  # the output of a computation cannot be switched off: cut it
    loss = F.cross_entropy(probe(features), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
