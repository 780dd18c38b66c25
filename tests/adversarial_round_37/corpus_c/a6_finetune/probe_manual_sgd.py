# expect: loses probe_step -- updates the weights by hand with the first group's lr (plain SGD), ignoring the optimizer's momentum, Adam moments and weight decay; spec: "your code must work with any of them ... then take the optimizer's step"
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    optimizer.zero_grad()
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    lr = optimizer.param_groups[0]["lr"]
    with torch.no_grad():
        for p in probe.parameters():
            p -= lr * p.grad
    return loss.item()
