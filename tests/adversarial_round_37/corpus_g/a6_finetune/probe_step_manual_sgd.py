# expect: loses probe_step -- updates the weights by hand (p -= lr * grad, lr read from the optimizer) instead of optimizer.step(): right for plain SGD, wrong for momentum, weight decay, Adam, AdamW
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    optimizer.zero_grad()
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    lr = optimizer.param_groups[0]["lr"]
    with torch.no_grad():
        for param in probe.parameters():
            param -= lr * param.grad
    return float(loss)
