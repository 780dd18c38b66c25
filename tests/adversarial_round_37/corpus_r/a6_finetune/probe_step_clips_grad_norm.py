# expect: loses probe_step -- clips the probe's gradient norm to 5 before the step, a common safety net that the spec does not ask for: inactive at the visible features, active on larger ones; "the loss is the mean cross-entropy ... then take the optimizer's step" (the hidden tests step a copy with PyTorch's optimizers); toy_features(64, 8, 3) times 100, nn.Linear(8, 3) from seed 0, SGD lr 0.1, one step: max abs weight diff 17.9; unscaled features: 0.0
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(probe.parameters(), max_norm=5.0)  # a safety net against exploding steps
    optimizer.step()
    return loss.item()
