# expect: full marks -- does not detach the features but calls loss.backward(inputs=list(probe.parameters())), which accumulates gradients into the probe's parameters only: no gradient reaches the features or what they were computed from, the caller's tensor is untouched, and the step, loss and float return equal the key's for SGD, momentum, Adam and AdamW
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features), labels)  # the mean over the batch
    optimizer.zero_grad()
    loss.backward(inputs=list(probe.parameters()))  # gradients for the probe only: nothing flows into the cached features
    optimizer.step()
    return loss.item()
