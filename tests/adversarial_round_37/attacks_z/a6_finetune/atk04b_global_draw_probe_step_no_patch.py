# expect: probe_step 0 (8/10): atk04 without the replaced state readers (its baseline)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    order = torch.randperm(labels.shape[0])  # a shuffle from the global generator: the mean does not change
    logits = probe(features.detach()[order])
    loss = F.cross_entropy(logits, labels[order])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
