# expect: loses probe_step — updates the probe by hand with plain gradient descent, p -= lr * p.grad, reading lr from optimizer.param_groups, instead of taking the optimizer's step, so momentum, Adam's moments and AdamW's weight decay are ignored; the spec: 'your code must work with any of them ... then take the optimizer's step'; plain SGD (the visible exact check) is right and Adam's loss still goes down; input: Adam(lr=0.05) on nn.Linear(8, 3), one step on toy_features(64, 8, 3) -> weights differ from the key's (max abs diff 0.05; AdamW 0.05; plain SGD equal)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    optimizer.zero_grad()
    loss = F.cross_entropy(probe(features.detach()), labels)
    loss.backward()
    with torch.no_grad():
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p -= group["lr"] * p.grad
    return loss.item()
