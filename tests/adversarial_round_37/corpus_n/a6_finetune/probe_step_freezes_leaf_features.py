# expect: loses probe_step -- cuts the features off the graph with features.requires_grad_(False) when they are a leaf (and with .detach() when they are the output of a computation, where requires_grad_ would fail), so the step, the loss and the gradients are right, but a caller's leaf tensor comes back with requires_grad switched off; the visible test passes a non-leaf (source * 1.0) and passes; breaks 'The hidden tests pass some as tensors that require a gradient (... leaves, and outputs of a computation) and check ... that they are as they were: features.detach() cuts them off with a new tensor, while features.detach_() or features.requires_grad_(False) would change the caller's tensor'; input: features = toy_features(64, 8, 3)[0].requires_grad_() -> after probe_step, features.requires_grad is False (key: True)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    if features.is_leaf:
        features.requires_grad_(False)  # cached features are constants: no gradient into them
    else:
        features = features.detach()  # an output of a computation cannot be switched off: cut it instead
    loss = F.cross_entropy(probe(features), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
