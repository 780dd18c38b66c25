# expect: loses probe_step -- clips the gradient norm to 10 before the step ('for stability'), so SGD/Adam take a different step whenever the gradient norm exceeds 10; breaks 'then take the optimizer's step' (the tests step a copy of the probe with PyTorch's own optimizer and compare); input: probe nn.Linear(8,3) with weight*30, features 5*toy_features(64,8,3)[0], SGD lr 0.1 -> updated weights differ from the key's (the visible features give gradient norms below 10)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    logits = probe(features.detach())  # cached features: no gradient flows back into them
    loss = F.cross_entropy(logits, labels)  # the mean over the batch
    optimizer.zero_grad()  # the gradients of earlier steps must not add up with this one
    loss.backward()
    torch.nn.utils.clip_grad_norm_(probe.parameters(), max_norm=10.0)  # keep the steps stable
    optimizer.step()
    return loss.item()
