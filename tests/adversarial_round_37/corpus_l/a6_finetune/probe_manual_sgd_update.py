# expect: loses probe_step -- after backward() the parameters are updated by hand, p -= lr * p.grad with the lr read from the optimizer's param group: that is plain SGD whatever the optimizer (no momentum, no Adam moments, no weight decay) and the optimizer's state never advances; the visible SGD checks pass and 30 "Adam" steps of plain SGD at lr 0.05 still lower the loss; breaks "optimizer a torch.optim optimizer ... (SGD, SGD with momentum, Adam, AdamW: your code must work with any of them)" and "then take the optimizer's step"; input: probe = nn.Linear(8, 3), Adam(lr=0.05), one step on toy_features(64, 8, 3) -> weights differ from Adam's first step (which moves every weight by about lr)
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
