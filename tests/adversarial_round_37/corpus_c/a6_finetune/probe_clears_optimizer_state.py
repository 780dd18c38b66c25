# expect: loses probe_step -- empties the optimizer's state each step (momentum buffers, Adam's moments and step count), so momentum/Adam restart at every step; spec: "optimizer a torch.optim optimizer ... (SGD, SGD with momentum, Adam, AdamW: your code must work with any of them)", "then take the optimizer's step"
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    optimizer.state.clear()  # nothing of earlier steps must add up with this one
    optimizer.zero_grad()
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    optimizer.step()
    return loss.item()
