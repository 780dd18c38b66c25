# expect: full marks -- hands the optimizer a closure (zero_grad, forward on features.detach(), mean cross-entropy, backward, return loss) via optimizer.step(closure), returning .item() of what it returns: SGD, momentum, Adam and AdamW call it exactly once, before updating, so the returned float is the loss before the step and gradients never accumulate
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    cached = features.detach()

    def closure():
        optimizer.zero_grad()
        loss = F.cross_entropy(probe(cached), labels)
        loss.backward()
        return loss

    return optimizer.step(closure).item()
