# expect: loses probe_step -- steps a fresh SGD built from the given optimizer's learning rate instead of the optimizer passed in, so momentum/Adam state and the optimizer's own rule are ignored across repeated steps; spec: "optimizer a torch.optim optimizer over the probe's parameters (SGD, SGD with momentum, Adam, AdamW: your code must work with any of them) ... then take the optimizer's step"
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    lr = optimizer.param_groups[0]["lr"]
    sgd = torch.optim.SGD(probe.parameters(), lr=lr)  # a plain gradient step at the caller's learning rate
    sgd.zero_grad()
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    sgd.step()
    return loss.item()
