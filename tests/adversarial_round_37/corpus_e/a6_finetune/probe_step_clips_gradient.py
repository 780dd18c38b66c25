# expect: loses probe_step -- clips the gradient's norm to 5 before the step ("for stability"): while the gradient's norm is below 5 (2.5 at the visible test's first step) the step is the spec's (the visible SGD check passes), but a batch whose mean cross-entropy has a larger gradient (large features, a fresh probe far from the labels) takes a shorter step than the optimizer's; spec: "the gradients of earlier steps ... must not add up with this one: clear them (`optimizer.zero_grad()`) before you back-propagate; then take the optimizer's step" (on the gradient of "the **mean** cross-entropy of `probe(features)` against `labels`")
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    logits = probe(features.detach())  # cached features: no gradient flows back into them
    loss = F.cross_entropy(logits, labels)  # the mean over the batch
    optimizer.zero_grad()  # the gradients of earlier steps must not add up with this one
    loss.backward()
    torch.nn.utils.clip_grad_norm_(probe.parameters(), max_norm=5.0)  # no exploding steps
    optimizer.step()
    return loss.item()
